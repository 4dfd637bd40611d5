/**
 * Reading the list index (middleware.ts keeps it): a table's head, a whole column (range reads
 * of a few dozen chunks each, not a read per row), or some columns of the few chunks a change
 * touched. Callers that need them to agree read them in one transaction with the head.
 */
import type Dexie from 'dexie';
import {
  CHUNK_STORE,
  HEAD_STORE,
  KEY_COLUMN,
  type StoredColumn,
  type StoredHead,
  unpackColumn,
} from './chunk';

export const INDEX_STORES = [HEAD_STORE, CHUNK_STORE];

export function readHead(db: Dexie, table: string): Promise<StoredHead | undefined> {
  return db.table<StoredHead, string>(HEAD_STORE).get(table);
}

/** A column of every chunk: chunk -> values, in each chunk's row order. */
export async function readColumn(db: Dexie, head: StoredHead, col: string): Promise<Map<number, string[]>> {
  const records = await db
    .table<StoredColumn>(CHUNK_STORE)
    .where('[table+col+n]')
    .between([head.table, col, -Infinity], [head.table, col, Infinity])
    .toArray();
  return new Map(records.map((r) => [r.n, unpackColumn(r.text, head.sizes[r.n] ?? 0)]));
}

/** Some columns of some chunks: chunk -> column -> values. */
export async function readChunkColumns(
  db: Dexie,
  head: StoredHead,
  ns: readonly number[],
  cols: readonly string[],
): Promise<Map<number, Map<string, string[]>>> {
  const keys = ns.flatMap((n) => cols.map((col) => [head.table, col, n]));
  const found = await db.table<StoredColumn>(CHUNK_STORE).bulkGet(keys);
  const out = new Map<number, Map<string, string[]>>();
  for (const n of ns) out.set(n, new Map());
  for (const r of found) if (r) out.get(r.n)?.set(r.col, unpackColumn(r.text, head.sizes[r.n] ?? 0));
  return out;
}

/** Every chunk of a table with all its columns (for checks: the index against the rows). */
export function readTableIndex(
  db: Dexie,
  table: string,
  fields: readonly string[],
): Promise<{ head: StoredHead | undefined; chunks: { n: number; keys: string[]; cols: string[][] }[] }> {
  return db.transaction('r', INDEX_STORES, async () => {
    const head = await readHead(db, table);
    if (!head) return { head, chunks: [] };
    const ns = Object.keys(head.chunks).map(Number);
    const read = await readChunkColumns(db, head, ns, [KEY_COLUMN, ...fields]);
    return {
      head,
      chunks: ns.map((n) => {
        const cols = read.get(n) ?? new Map();
        return { n, keys: cols.get(KEY_COLUMN) ?? [], cols: fields.map((f) => cols.get(f) ?? []) };
      }),
    };
  });
}
