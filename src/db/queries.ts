/**
 * Reads for the screens: lists with search, sort and paging run on the local store (design
 * brief §2), and single records by any id they were ever known by.
 *
 * Lists filter and sort an in-memory copy of the table. That is right for the master-data
 * tables (tens to thousands of rows); the 100,000-row students table gets a maintained
 * projection with a search index in a later issue, behind this same function.
 */

import Dexie from 'dexie';
import { entityByName } from '../contract/entities';
import { type EntityDescription, refFields } from '../contract/entity';
import type { LocalDb, Row } from './database';
import { resolveId } from './resolve';

export interface ListQuery {
  search?: string;
  /** 1-based. */
  page?: number;
  pageSize?: number;
  sort?: { field: string; dir: 'asc' | 'desc' };
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
 * Parents' names, joined here rather than trusted from the rows: a record made or renamed
 * on this device shows its parents' current names before the server has seen either.
 */
async function withParentNames(db: LocalDb, entity: EntityDescription, rows: Row[]): Promise<Row[]> {
  const joins: [string, string, Map<unknown, unknown>][] = [];
  for (const [field, spec] of refFields(entity)) {
    if (!spec.refName) continue;
    const parent = entityByName(spec.ref);
    const titles = new Map((await db.rows(parent).toArray()).map((p) => [p[parent.key], p[parent.title]]));
    joins.push([field, spec.refName, titles]);
  }
  if (joins.length === 0) return rows;
  return rows.map((row) => {
    const out = { ...row };
    for (const [field, name, titles] of joins) {
      const title = titles.get(row[field]);
      if (title !== undefined) out[name] = title;
    }
    return out;
  });
}

function parentTables(db: LocalDb, entity: EntityDescription) {
  return refFields(entity).map(([, spec]) => db.rows(entityByName(spec.ref)));
}

export async function listRows(db: LocalDb, entity: EntityDescription, q: ListQuery): Promise<ListResult> {
  const pageSize = q.pageSize ?? entity.list.pageSize;
  const needle = (q.search ?? '').trim().toLowerCase();
  const sort = q.sort ?? entity.list.sort;
  return db.transaction('r', [db.rows(entity), db.outbox, ...parentTables(db, entity)], async () => {
    const all = await withParentNames(db, entity, await db.rows(entity).toArray());
    const matching = all.filter((row) => matchesSearch(row, entity.list.search, needle));
    const sign = sort.dir === 'asc' ? 1 : -1;
    matching.sort((a, b) => sign * compareValues(a[sort.field], b[sort.field]));
    const pages = Math.max(1, Math.ceil(matching.length / pageSize));
    const page = Math.min(Math.max(1, q.page ?? 1), pages);
    const rows = matching.slice((page - 1) * pageSize, page * pageSize);
    return { rows, total: matching.length, page, pageSize, pending: await pendingKeys(db, entity) };
  });
}

export async function getRow(db: LocalDb, entity: EntityDescription, id: string): Promise<Row | undefined> {
  const key = await resolveId(db, id);
  return db.rows(entity).get(key);
}
