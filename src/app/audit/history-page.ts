/**
 * The history screen's data: one page of the server's audit trail for the screen's filters,
 * read from the server when there is one, and kept on the device per query so that, offline
 * or with the server out of reach, the screen shows what it fetched last (db/audit/kept-audit-answers.ts).
 * Nothing here is queued or replayed: history is the server's, read on demand.
 */
import type { AuditReply } from '../../contract/audit/audit-reply';
import { AUDIT_DEFAULT_LIMIT, type AuditQuery } from '../../contract/audit/audit-trail';
import { type KeptAnswer, keepAuditAnswer, readAuditAnswer } from '../../db/audit/kept-audit-answers';
import { db, loadApi } from '../window-context';
import type { AuditSearch } from './audit-search';

export type AuditView =
  | { kind: 'fresh'; reply: AuditReply }
  /** No connection (or no server answering): the last answer to this query, if any. */
  | { kind: 'kept'; kept: KeptAnswer | null }
  /** The server keeps no audit trail (the PHP API). */
  | { kind: 'absent' }
  | { kind: 'signed-out' }
  | { kind: 'refused'; message: string };

/** A local day's first or last moment as an instant. */
function dayEdge(day: string, end: boolean): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(new Date(y, m - 1, end ? d + 1 : d).getTime() - (end ? 1 : 0)).toISOString();
}

/** The server's query for the screen's filters: local days become instants. */
export function auditQuery(search: AuditSearch): AuditQuery {
  const query: AuditQuery = { limit: AUDIT_DEFAULT_LIMIT };
  if (search.entity !== undefined) query.entity = String(search.entity);
  if (search.id !== undefined) query.id = String(search.id);
  if (search.admin !== undefined) query.admin = String(search.admin);
  if (search.from) query.from = dayEdge(search.from, false);
  if (search.to) query.to = dayEdge(search.to, true);
  if (search.before !== undefined) query.before = String(search.before);
  if (search.page) query.page = search.page;
  return query;
}

/** The key an answer is kept under: the filters and paging, in a fixed order. */
const keyOf = (search: AuditSearch) =>
  (['entity', 'id', 'admin', 'from', 'to', 'before', 'page'] as const)
    .flatMap((k) => (search[k] === undefined ? [] : [`${k}=${encodeURIComponent(String(search[k]))}`]))
    .join('&');

export async function loadAuditPage(search: AuditSearch, online: boolean): Promise<AuditView> {
  const kept = () => readAuditAnswer(db, keyOf(search)).then((k): AuditView => ({ kind: 'kept', kept: k }));
  if (!online) return kept();
  const { readAuditPage } = await import('../../sync/audit/audit-read');
  const read = await readAuditPage(await loadApi(), auditQuery(search));
  if (read.kind === 'unreachable') return kept();
  if (read.kind !== 'answer') return read;
  await keepAuditAnswer(db, keyOf(search), read.reply);
  return { kind: 'fresh', reply: read.reply };
}
