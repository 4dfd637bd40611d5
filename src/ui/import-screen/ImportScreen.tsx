/**
 * The CSV import of an entity (`routes.import` in its description): a template to
 * download, a file to choose, the preview (rows ready, rows already up to date, problems by
 * line and field, columns ignored), then "Import N rows", which queues the ready rows in the
 * outbox a slice at a time in the CSV worker, offline too, and follows them until the server
 * has answered each: "N imported", "N refused", and the refused rows as a CSV to fix and import
 * again. A reload or a sign-out while queueing resumes here from the first row not queued.
 */
import { Link } from '@tanstack/react-router';
import { templateFileName, templateText } from '../../contract/csv/template';
import type { EntityDescription } from '../../contract/entity';
import { downloadText } from '../download';
import { usePageTitle } from '../use-page-title';
import { CsvFilePicker } from './CsvFilePicker';
import { Delivery } from './Delivery';
import { Preview } from './Preview';
import { useImport } from './use-import';

export function ImportScreen({ entity }: { entity: EntityDescription }) {
  const title = `Import ${entity.names.Many}`;
  usePageTitle(title);
  const { phase, input, choose, start, downloadRefused, again } = useImport(entity);

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
      <CsvFilePicker
        input={input}
        disabled={busy}
        chosen={phase.at !== 'choose'}
        onChoose={(file) => void choose(file)}
      />
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
      {phase.at === 'preview' && (
        <Preview file={phase.file} names={entity.names} onImport={(skip) => void start(phase.file, skip)} />
      )}
      {phase.at === 'delivering' && phase.delivery && phase.delivery.delivered === phase.delivery.total && (
        <p className="import-actions">
          {phase.delivery.refused.length + phase.delivery.skipped > 0 && (
            <button type="button" className="button" onClick={() => void downloadRefused(phase.id)}>
              Download rows not imported
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
