/**
 * Reads for the screens: lists with search, sort and paging run on the local store (design
 * brief §2), and single records by any id they were ever known by.
 *
 * Lists filter and sort an in-memory copy of the table. That is right for the master-data
 * tables (tens to thousands of rows); the 100,000-row students table gets a maintained
 * projection with a search index in a later issue, behind this same function.
 */
import type { EntityDescription } from '../contract/entity';
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
  const keys = await db.outbox.where('entity').equals(entity.name).toArray();
  return new Set(keys.map((e) => e.key));
}

export async function listRows(db: LocalDb, entity: EntityDescription, q: ListQuery): Promise<ListResult> {
  const pageSize = q.pageSize ?? entity.list.pageSize;
  const needle = (q.search ?? '').trim().toLowerCase();
  const sort = q.sort ?? entity.list.sort;
  return db.transaction('r', [db.rows(entity), db.outbox], async () => {
    const all = await db.rows(entity).toArray();
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

/** Every row, for dropdowns of parent records. */
export async function allRows(db: LocalDb, entity: EntityDescription): Promise<Row[]> {
  return db.rows(entity).toArray();
}
