/**
 * The CSV import of an entity (`routes.import` in its description): a template to
 * download, a file to choose, the preview (rows ready, rows already up to date, problems by
 * line and field, columns ignored), then "Import N rows", which queues the ready rows in the
 * outbox a slice at a time in the CSV worker, offline too, and follows them until the server
 * has answered each: "N imported", "N refused", and the refused rows as a CSV to fix and import
 * again. A reload or a sign-out while queueing resumes here from the first row not queued.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { CheckedFile, DeliveryCount } from '../app/csv';
import { templateFileName, templateText } from '../contract/csv/template';
import type { EntityDescription } from '../contract/entity';
import { downloadText } from './download';
import { usePageTitle } from './use-page-title';

const csv = () => import('../app/csv');

/** Problems shown at once: a file of thousands of bad rows still draws quickly. */
const SHOWN_PROBLEMS = 500;
const DELIVERY_POLL_MS = 500;

type Phase =
  | { at: 'choose' }
  | { at: 'checking' }
  | { at: 'preview'; file: CheckedFile }
  | { at: 'queueing'; id: string; queued: number; total: number }
  | { at: 'delivering'; id: string; delivery: DeliveryCount | null }
  | { at: 'failed'; message: string };

const dateOf = (at: number) =>
  new Date(at).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

export function ImportScreen({ entity }: { entity: EntityDescription }) {
  const title = `Import ${entity.names.Many}`;
  usePageTitle(title);
  const [phase, setPhase] = useState<Phase>({ at: 'choose' });
  const input = useRef<HTMLInputElement>(null);

  const queue = async (id: string, total: number) => {
    setPhase({ at: 'queueing', id, queued: 0, total });
    const { queueImport } = await csv();
    const outcome = await queueImport(id, (queued, all) =>
      setPhase({ at: 'queueing', id, queued, total: all }),
    );
    if (outcome === 'queued' || outcome === 'busy') setPhase({ at: 'delivering', id, delivery: null });
  };

  // An import left queueing (a reload, a sign-out) goes on from its first row not queued.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per entity
  useEffect(() => {
    let live = true;
    void csv()
      .then(({ unfinishedImportOf }) => unfinishedImportOf(entity))
      .then((record) => {
        if (live && record) void queue(record.id, record.total);
      });
    return () => {
      live = false;
    };
  }, [entity.name]);

  // Delivery: counted from the outbox until the server has answered every row.
  const deliveringId = phase.at === 'delivering' ? phase.id : null;
  useEffect(() => {
    if (!deliveringId) return;
    let live = true;
    const poll = async () => {
      const { importDelivery } = await csv();
      const delivery = await importDelivery(deliveringId);
      if (!live) return;
      setPhase({ at: 'delivering', id: deliveringId, delivery });
      if (!delivery || delivery.delivered < delivery.total) timer = setTimeout(poll, DELIVERY_POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [deliveringId]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPhase({ at: 'checking' });
    try {
      const { checkImportFile } = await csv();
      setPhase({ at: 'preview', file: await checkImportFile(entity, file) });
    } catch (error) {
      console.error('Import check failed:', error);
      setPhase({ at: 'failed', message: 'The file could not be read as CSV.' });
    }
  };

  const start = async (file: CheckedFile) => {
    if (
      file.importedAt !== null &&
      !window.confirm(`This file was imported on ${dateOf(file.importedAt)}. Import it again?`)
    )
      return;
    const { startImport } = await csv();
    const id = await startImport(entity, file);
    await queue(id, file.check.ready);
  };

  const downloadRefused = async (id: string) => {
    const { refusedRowsText } = await csv();
    downloadText(`${entity.table}-refused.csv`, await refusedRowsText(id));
  };

  const again = () => {
    if (input.current) input.current.value = '';
    setPhase({ at: 'choose' });
  };

  const busy = phase.at === 'checking' || phase.at === 'queueing';
  return (
    <section className="screen import-screen">
      <div className="screen-head">
        <h1>{title}</h1>
        {entity.routes.list && (
          <Link to={entity.routes.list} className="button button-light">
            Back to {entity.names.Many}
          </Link>
        )}
      </div>
      <p>
        A CSV file with a header row: one {entity.names.one} a line. A row with an ID changes that{' '}
        {entity.names.one}; without one, it adds a {entity.names.one}.{' '}
        <button
          type="button"
          className="button button-light button-small"
          onClick={() => downloadText(templateFileName(entity), templateText(entity))}
        >
          Download template
        </button>
      </p>
      <label className="field">
        <span>CSV file</span>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          disabled={busy}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </label>
      <div role="status" aria-live="polite">
        {phase.at === 'checking' && <p>Checking the file…</p>}
        {phase.at === 'queueing' && (
          <p>
            {phase.queued} of {phase.total} queued
          </p>
        )}
        {phase.at === 'delivering' && phase.delivery && <Delivery delivery={phase.delivery} />}
        {phase.at === 'failed' && <p className="error">{phase.message}</p>}
      </div>
      {phase.at === 'preview' && <Preview file={phase.file} onImport={() => void start(phase.file)} />}
      {phase.at === 'delivering' && phase.delivery && phase.delivery.delivered === phase.delivery.total && (
        <p className="import-actions">
          {phase.delivery.refused.length > 0 && (
            <button type="button" className="button" onClick={() => void downloadRefused(phase.id)}>
              Download refused rows
            </button>
          )}{' '}
          <button type="button" className="button button-light" onClick={again}>
            Import another file
          </button>
        </p>
      )}
    </section>
  );
}

function Delivery({ delivery }: { delivery: DeliveryCount }) {
  if (delivery.delivered < delivery.total)
    return (
      <p>
        {delivery.delivered} of {delivery.total} delivered
      </p>
    );
  return (
    <>
      <p>{delivery.imported} imported</p>
      <p>{delivery.refused.length} refused</p>
    </>
  );
}

function Preview({ file, onImport }: { file: CheckedFile; onImport: () => void }) {
  const { check } = file;
  const shown = check.problems.slice(0, SHOWN_PROBLEMS);
  return (
    <div className="import-preview">
      <p>
        {check.ready} {check.ready === 1 ? 'row' : 'rows'} ready to import
      </p>
      {check.upToDate > 0 && <p>{check.upToDate} already up to date</p>}
      {check.unknown.length > 0 && <p>Columns ignored: {check.unknown.join(', ')}</p>}
      {file.importedAt !== null && <p>This file was imported on {dateOf(file.importedAt)}.</p>}
      {check.problems.length > 0 && (
        <table className="table">
          <caption>Rows with problems (not imported)</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a line may have several problems
              <tr key={i}>
                <td>{p.line}</td>
                <td>{p.field}</td>
                <td>{p.problem}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {check.problems.length > shown.length && (
        <p>And {check.problems.length - shown.length} more problems.</p>
      )}
      <button type="button" className="button" disabled={check.ready === 0} onClick={onImport}>
        Import {check.ready} {check.ready === 1 ? 'row' : 'rows'}
      </button>
    </div>
  );
}
