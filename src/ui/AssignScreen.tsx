/**
 * Assign Books to {name} (spec §2): every book with an Assign checkbox, pre-ticked from the
 * record's current set; submitting replaces the whole set and returns to the list. Beyond the
 * original: a search over the books, each book's class, subject and series beside its name
 * (books of one name told apart), and a count of ticked books. The set is queued whole and,
 * before it is sent, merged three ways with the server's (src/sync/merge-set.ts), so books
 * someone else assigned or removed meanwhile stay as the server has them.
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { allRecords, fetchSetIfMissing, saveChange } from '../app/records';
import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { useRecord } from './data';
import { FormActions } from './FormActions';
import { useNotify } from './notices';
import { reportOutcome } from './report-outcome';
import { ScrollTable } from './ScrollTable';
import { saveFailureDetail } from './save-failure';
import { usePageTitle } from './use-page-title';

/** What tells records of one name apart: their parents' names ('Class 1 · Mathematics · Number Fun'). */
function parentsOf(target: EntityDescription, row: Record<string, unknown>): string {
  return Object.values(target.fields)
    .flatMap((spec) => (spec.kind === 'ref' && spec.refName ? [String(row[spec.refName] ?? '')] : []))
    .filter(Boolean)
    .join(' · ');
}

export function AssignScreen({ entity, relation }: { entity: EntityDescription; relation: string }) {
  const rel = entity.relations?.[relation];
  const target = entityByName(rel?.target ?? '');
  // Decoded by the router (route-id.ts: routeIdParams).
  const id = (useParams({ strict: false }) as { id?: string }).id ?? '';
  const record = useRecord(entity, id);
  const name = record ? String(record[entity.title] ?? '') : '';
  const title = `Assign ${target.names.Many} to ${name}`;
  usePageTitle(title);
  const notify = useNotify();
  const navigate = useNavigate();
  const searchId = useId();
  const choices = useLiveQuery(() => allRecords(target), [target.name]);
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const back = entity.routes.list ?? '/homepage';

  // The set as the server has it, when the device has none yet (a legacy server's lists).
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!id) return;
    void fetchSetIfMissing(entity, id, relation).then((outcome) => {
      // Spec §8: 'Failed to fetch assigned books' / 'Error fetching assigned books'.
      const what = `assigned ${target.names.many}`;
      if (outcome === 'failed') notify('error', `Failed to fetch ${what}`);
      if (outcome === 'error') notify('error', `Error fetching ${what}`);
      setAsked(true);
    });
  }, [entity, id, relation, target, notify]);
  // Pre-ticked from the record's set, once it is known; from then on the boxes are the
  // administrator's. A set the device cannot have (offline, never read) starts empty: the merge
  // before sending keeps whatever the server has that was not unticked here.
  const current = record?.[relation];
  useEffect(() => {
    if (ticked !== null || !record) return;
    if (Array.isArray(current)) setTicked(new Set(current.map(String)));
    else if (asked) setTicked(new Set());
  }, [current, ticked, record, asked]);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const all = [...(choices ?? [])].sort((a, b) =>
      String(a[target.title] ?? '').localeCompare(String(b[target.title] ?? ''), undefined, {
        numeric: true,
      }),
    );
    return needle
      ? all.filter((row) =>
          String(row[target.title] ?? '')
            .toLowerCase()
            .includes(needle),
        )
      : all;
  }, [choices, search, target]);

  if (!rel) return null;
  if (record === null) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <p role="alert">{entity.names.One} not found.</p>
        <Link to={back}>Back to {entity.names.many}</Link>
      </section>
    );
  }
  const chosen = ticked ?? new Set<string>();

  const toggle = (key: string) =>
    setTicked((all) => {
      const next = new Set(all ?? []);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const [success, failure] = rel.messages;
    try {
      const { entryId } = await saveChange({ op: 'relate', entity, key: id, relation, ids: [...chosen] });
      await navigate({ to: back });
      await reportOutcome(notify, entryId, success, failure);
    } catch (error) {
      notify('error', failure, saveFailureDetail(error));
      setBusy(false);
    }
  };

  return (
    <section className="screen">
      <h1>{title}</h1>
      <form onSubmit={submit}>
        <div className="list-tools">
          <input
            id={searchId}
            type="search"
            className="search"
            aria-label={`Search ${target.names.many}`}
            placeholder={`Search ${target.names.many}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <p className="muted" aria-live="polite">
            {chosen.size} {chosen.size === 1 ? target.names.one : target.names.many} ticked
          </p>
        </div>
        <ScrollTable label={title}>
          <table className="table table-cards">
            <thead>
              <tr>
                <th scope="col">S.no</th>
                <th scope="col">{target.names.One} Name</th>
                <th scope="col">Assign</th>
              </tr>
            </thead>
            <tbody aria-busy={choices === undefined}>
              {shown.map((row, i) => {
                const key = String(row[target.key]);
                const label = String(row[target.title] ?? '');
                const parents = parentsOf(target, row);
                return (
                  <tr key={key}>
                    <td data-label="S.no" className="cell-sno">
                      {i + 1}
                    </td>
                    <td data-label={`${target.names.One} Name`} className="cell-primary">
                      {label}
                      {parents && <small className="muted block">{parents}</small>}
                    </td>
                    <td data-label="Assign">
                      <label className="check-target">
                        <input type="checkbox" checked={chosen.has(key)} onChange={() => toggle(key)} />
                        <span className="visually-hidden">
                          Assign {label}
                          {parents ? ` (${parents})` : ''}
                        </span>
                      </label>
                    </td>
                  </tr>
                );
              })}
              {choices && shown.length === 0 && (
                <tr>
                  <td colSpan={3} className="empty">
                    No {target.names.many} found.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </ScrollTable>
        <FormActions submit={`Assign ${target.names.Many}`} disabled={busy || ticked === null} back={back} />
      </form>
    </section>
  );
}
