/**
 * The audit_log table (migrations/013_audit.sql): entries written in one statement per
 * transaction, read newest first with filters and a keyset cursor, pruned after the retention
 * window (AUDIT_RETENTION_DAYS) together with the stored idempotent replies.
 */
import type { AuditEntry } from '../../src/contract/audit/audit-reply';
import type { AuditOp } from '../../src/contract/audit/audit-trail';
import type { Query, Statement } from '../db';
import type { RecordedChange } from './recorder';

/** Two years: long enough to answer "who changed this, and when" about last school year. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 730;

/** Who made a change and where: the same for every change of one write item. */
export interface AuditOrigin {
  adminId: number;
  /** When the change was made on the device, ISO 8601 (null: not said, or not a sane time). */
  madeAt: string | null;
  device: string | null;
}

export type StoredChange = RecordedChange & AuditOrigin;

/**
 * The statement storing the entries of one transaction, in the order given (their ids follow
 * it), each with the username its administrator has now; its parameters start at `$first`, so
 * that the write pipeline can run it in one statement with the replies' (write-pipeline.ts).
 * `at` is the statement's time: the changes were applied by this transaction, which commits
 * right after.
 */
export function auditInsert(entries: readonly StoredChange[], first = 1): Statement {
  const column = <K extends keyof StoredChange>(key: K) => entries.map((e) => e[key]);
  const p = (i: number) => `$${first + i}`;
  return {
    sql: `INSERT INTO audit_log (made_at, admin_id, admin, device, entity, record_id, op, changes)
     SELECT t.made_at, t.admin_id, a.username, t.device, t.entity, t.record_id, t.op, t.changes::jsonb
     FROM unnest(${p(0)}::timestamptz[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[])
       WITH ORDINALITY AS t(made_at, admin_id, device, entity, record_id, op, changes, n)
     LEFT JOIN admins a ON a.id = t.admin_id
     ORDER BY t.n`,
    params: [
      column('madeAt'),
      column('adminId'),
      column('device'),
      column('entity'),
      column('recordId'),
      column('op'),
      entries.map((e) => JSON.stringify(e.changes)),
    ],
  };
}

/** Stores the entries of one transaction (auditInsert) on their own. */
export async function insertAudit(q: Query, entries: readonly StoredChange[]): Promise<void> {
  if (entries.length === 0) return;
  const { sql, params } = auditInsert(entries);
  await q(sql, params);
}

/** Removes entries older than the retention window; returns how many went. */
export async function pruneAudit(q: Query, retentionDays: number): Promise<number> {
  const gone = await q('DELETE FROM audit_log WHERE at < now() - make_interval(days => $1) RETURNING id', [
    retentionDays,
  ]);
  return gone.length;
}

/** A checked query (route.ts): times as ISO 8601 instants, both ends inclusive. */
export interface AuditFilter {
  entity?: string;
  recordId?: string;
  admin?: string;
  from?: string;
  to?: string;
  /** Only entries whose id is below this one. */
  before?: number;
  page: number;
  limit: number;
}

interface AuditRow {
  id: number;
  at: Date | string;
  made_at: Date | string | null;
  admin: string | null;
  device: string | null;
  entity: string;
  record_id: string;
  op: AuditOp;
  changes: AuditEntry['changes'];
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * One page of entries, newest first, the number of entries the filters match (whatever the
 * cursor), and the cursor of the next page. Every filter is an index range ending in id
 * (013_audit.sql), so a page costs its own rows plus the pages it skips.
 */
export async function readAudit(
  q: Query,
  filter: AuditFilter,
): Promise<{ data: AuditEntry[]; total: number; next: string | null }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.entity !== undefined) add('entity = ?', filter.entity);
  if (filter.recordId !== undefined) add('record_id = ?', filter.recordId);
  if (filter.admin !== undefined) add('admin = ?', filter.admin);
  if (filter.from !== undefined) add('at >= ?::timestamptz', filter.from);
  if (filter.to !== undefined) add('at <= ?::timestamptz', filter.to);
  const matching = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [{ total }] = await q<{ total: number }>(`SELECT count(*) AS total FROM audit_log ${matching}`, [
    ...params,
  ]);
  if (filter.before !== undefined) add('id < ?', filter.before);
  const paged = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const rows = await q<AuditRow>(
    `SELECT id, at, made_at, admin, device, entity, record_id, op, changes FROM audit_log ${paged}
     ORDER BY id DESC LIMIT ${filter.limit + 1} OFFSET ${(filter.page - 1) * filter.limit}`,
    params,
  );
  const more = rows.length > filter.limit;
  const page = rows.slice(0, filter.limit);
  return {
    data: page.map((row) => ({
      id: String(row.id),
      at: iso(row.at),
      madeAt: row.made_at === null ? null : iso(row.made_at),
      admin: row.admin,
      device: row.device,
      entity: row.entity,
      recordId: row.record_id,
      op: row.op,
      changes: row.changes,
    })),
    total,
    next: more ? String(page[page.length - 1].id) : null,
  };
}
