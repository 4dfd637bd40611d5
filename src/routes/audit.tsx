/**
 * The audit trail (`/audit`): every change the server applied, newest first, with
 * filters by record type, record, administrator and dates, kept in the address so that an
 * edit form's history link (`/audit?entity=classes&id=12`) opens one record's history.
 *
 * History is the server's: this screen reads it (src/app/audit/history-page.ts) and never the local store's
 * records. Offline, or with the server out of reach, it says that history needs a connection
 * and shows the answer it fetched last for the same filters, if any. Pages are counted from
 * the newest entry of the first page (`before`), so changes arriving meanwhile do not shift
 * them; "Newest" starts again from the top.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import type { AuditSearch } from '../app/audit/audit-search';
import { type AuditView, loadAuditPage } from '../app/audit/history-page';
import { AUDIT_DEFAULT_LIMIT, auditEntityName } from '../contract/audit/audit-trail';
import { entities } from '../contract/entities';
import { useOnline } from '../ui/sync-status/use-online';
import { usePageTitle } from '../ui/use-page-title';
import { AuditEntryView, entityLabel, useAuditNames } from './audit-entry';

const TITLE = 'Audit Trail';
const TYPES = entities
  .map((e) => ({ value: auditEntityName(e), label: e.names.Many }))
  .sort((a, b) => a.label.localeCompare(b.label));

const FILTERS = ['entity', 'id', 'admin', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The filters as the form's inputs hold them: text. */
const filtersOf = (search: AuditSearch): Filters =>
  Object.fromEntries(FILTERS.map((k) => [k, search[k] === undefined ? '' : String(search[k])])) as Filters;

function FilterForm({ search }: { search: AuditSearch }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Filters>(() => filtersOf(search));
  useEffect(() => setValues(filtersOf(search)), [search]);
  const set = (name: keyof Filters) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = Object.fromEntries(FILTERS.map((k) => [k, values[k].trim() || undefined]));
    void navigate({ to: '/audit', search: chosen });
  };
  return (
    <form className="form audit-filters" aria-label="Filter the audit trail" onSubmit={submit}>
      <div className="field">
        <label htmlFor="audit-entity">Record type</label>
        <select id="audit-entity" value={values.entity} onChange={set('entity')}>
          <option value="">All</option>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-id">Record id</label>
        <input id="audit-id" value={values.id} onChange={set('id')} inputMode="numeric" />
      </div>
      <div className="field">
        <label htmlFor="audit-admin">Administrator</label>
        <input id="audit-admin" value={values.admin} onChange={set('admin')} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="audit-from">From</label>
        <input id="audit-from" type="date" value={values.from} onChange={set('from')} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">To</label>
        <input id="audit-to" type="date" value={values.to} onChange={set('to')} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button">
          Show
        </button>
        <Link to="/audit" className="button button-light">
          Clear
        </Link>
      </div>
    </form>
  );
}

/** Why there is nothing fresh to show, in words. */
function ViewNotice({ view }: { view: AuditView }) {
  if (view.kind === 'kept')
    return (
      <p className="banner audit-notice" role="status">
        History needs a connection to the server.{' '}
        {view.kept
          ? `Showing what this device fetched on ${new Date(view.kept.readAt).toLocaleString()}.`
          : 'This device has not fetched this history before.'}
      </p>
    );
  const text = {
    absent: 'This server keeps no history of changes.',
    'signed-out': 'Your session has ended: sign in again to see the history.',
    refused: view.kind === 'refused' ? view.message : '',
    fresh: '',
  }[view.kind];
  return text ? (
    <p className="banner audit-notice" role="alert">
      {text}
    </p>
  ) : null;
}

/** `search`: the route's validated search (router.tsx reads it, see there why). */
export function AuditScreen({ search }: { search: AuditSearch }) {
  usePageTitle(TITLE);
  const key = JSON.stringify(search);
  const navigate = useNavigate();
  const online = useOnline();
  const [view, setView] = useState<AuditView | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the search
  useEffect(() => {
    let current = true;
    setView(null);
    loadAuditPage(search, online).then(
      (v) => current && setView(v),
      (error) => current && setView({ kind: 'refused', message: String(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, online]);

  const reply = view?.kind === 'fresh' ? view.reply : view?.kind === 'kept' ? view.kept?.reply : undefined;
  const names = useAuditNames(reply?.data);
  const page = search.page ?? 1;
  const pages = reply ? Math.max(1, Math.ceil(reply.total / AUDIT_DEFAULT_LIMIT)) : 1;
  // The first page's newest entry anchors the pages after it.
  const before = search.before ?? (reply?.data[0] ? Number(reply.data[0].id) + 1 : undefined);
  const go = (to: number) =>
    void navigate({
      to: '/audit',
      search: { ...search, before, page: to > 1 ? to : undefined },
    });
  const first = (page - 1) * AUDIT_DEFAULT_LIMIT + 1;

  return (
    <section className="screen">
      <h1>{TITLE}</h1>
      {search.entity && search.id && (
        <p className="screen-parent">
          History of {entityLabel(String(search.entity))} <strong>{search.id}</strong>
        </p>
      )}
      <FilterForm search={search} />
      {view === null ? (
        <p className="muted" role="status">
          Loading the history…
        </p>
      ) : (
        <ViewNotice view={view} />
      )}
      {reply && reply.data.length === 0 && <p>No changes match these filters.</p>}
      {reply && reply.data.length > 0 && (
        <>
          <p className="muted">
            Changes {first}–{first + reply.data.length - 1} of {reply.total}, newest first
          </p>
          <ol className="audit-list">
            {reply.data.map((entry) => (
              <AuditEntryView key={entry.id} entry={entry} names={names} />
            ))}
          </ol>
          <nav className="audit-pages" aria-label="Pagination">
            <button
              type="button"
              className="button button-light"
              disabled={page <= 1}
              onClick={() => go(page - 1)}
            >
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button
              type="button"
              className="button button-light"
              disabled={!reply.next}
              onClick={() => go(page + 1)}
            >
              Next
            </button>
            {search.before && (
              <Link
                to="/audit"
                search={{ ...search, before: undefined, page: undefined }}
                className="button button-light"
              >
                Newest
              </Link>
            )}
          </nav>
        </>
      )}
    </section>
  );
}
