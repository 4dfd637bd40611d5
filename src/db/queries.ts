/**
 * Reads for the screens: lists with search, sort and paging run on the local store (design
 * brief §2), and single records by any id they were ever known by.
 *
 * Lists filter and sort an in-memory copy of the table. That is right for the master-data
 * tables (tens to thousands of rows); the 100,000-row students table gets a maintained
 * projection with a search index in a later issue, behind these same functions (`listRows`,
 * `pageHolding`).
 */

import Dexie from 'dexie';
import type { EntityDescription } from '../contract/entity';
import type { LocalDb, Row } from './database';
import { parentTables, withParentNames } from './parent-names';
import { resolveId } from './resolve';

export interface ListQuery {
  search?: string;
  /** 1-based. */
  page?: number;
  pageSize?: number;
  sort?: { field: string; dir: 'asc' | 'desc' };
  /** Only rows whose fields have these values (the pages of one book; teachers by status). */
  where?: Readonly<Record<string, string>>;
}

export interface ListResult {
  rows: Row[];
  /** Rows matching the search, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  /** Keys of records with a change not yet confirmed by the server. */
  pending: Set<string>;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareValues(a: unknown, b: unknown): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  // Records made on this device (temporary ids) sort after the server's.
  return collator.compare(String(a ?? ''), String(b ?? ''));
}

export function matchesSearch(row: Row, fields: readonly string[], needle: string): boolean {
  if (!needle) return true;
  return fields.some((f) =>
    String(row[f] ?? '')
      .toLowerCase()
      .includes(needle),
  );
}

export async function pendingKeys(db: LocalDb, entity: EntityDescription): Promise<Set<string>> {
  // Index keys only: the entries themselves (payloads, files) are not read.
  const pairs = await db.outbox
    .where('[entity+key]')
    .between([entity.name, Dexie.minKey], [entity.name, Dexie.maxKey])
    .keys();
  return new Set(pairs.map((pair) => (pair as unknown as [string, string])[1]));
}

/**
 * The rows matching a list query's search, in its order (the query's sort, else the list's).
 * Synchronous on purpose: inside a Dexie transaction every extra async layer between two reads
 * risks losing the transaction ('committed too early').
 */
function ordered(entity: EntityDescription, all: Row[], q: ListQuery): Row[] {
  const needle = (q.search ?? '').trim().toLowerCase();
  const sort = q.sort ?? entity.list.sort;
  const where = Object.entries(q.where ?? {});
  const matching = all.filter(
    (row) =>
      where.every(([field, value]) => String(row[field] ?? '') === value) &&
      matchesSearch(row, entity.list.search, needle),
  );
  const sign = sort.dir === 'asc' ? 1 : -1;
  return matching.sort((a, b) => sign * compareValues(a[sort.field], b[sort.field]));
}

export async function listRows(db: LocalDb, entity: EntityDescription, q: ListQuery): Promise<ListResult> {
  const pageSize = q.pageSize ?? entity.list.pageSize;
  return db.transaction('r', [db.rows(entity), db.outbox, ...parentTables(db, entity)], async () => {
    const all = await withParentNames(db, entity, await db.rows(entity).toArray());
    const matching = ordered(entity, all, q);
    const pages = Math.max(1, Math.ceil(matching.length / pageSize));
    const page = Math.min(Math.max(1, q.page ?? 1), pages);
    const rows = matching.slice((page - 1) * pageSize, page * pageSize);
    return { rows, total: matching.length, page, pageSize, pending: await pendingKeys(db, entity) };
  });
}

/**
 * The page of a list query (its search and sort; its page is ignored) that holds the record
 * known by `id` (any id it was ever known by), and the record's current key; null when no
 * row of the query is that record. A form opens the list where the record it added is.
 */
export async function pageHolding(
  db: LocalDb,
  entity: EntityDescription,
  q: ListQuery,
  id: string,
): Promise<{ page: number; key: string } | null> {
  const pageSize = q.pageSize ?? entity.list.pageSize;
  return db.transaction('r', [db.rows(entity), db.idmap, ...parentTables(db, entity)], async () => {
    const key = await resolveId(db, id);
    const all = await withParentNames(db, entity, await db.rows(entity).toArray());
    const index = ordered(entity, all, q).findIndex((row) => String(row[entity.key]) === key);
    return index < 0 ? null : { page: Math.floor(index / pageSize) + 1, key };
  });
}

export async function getRow(db: LocalDb, entity: EntityDescription, id: string): Promise<Row | undefined> {
  const key = await resolveId(db, id);
  return db.rows(entity).get(key);
}
