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

/**
 * Chunks per request of a column read in pieces. IndexedDB answers a database's requests one
 * after another: a whole column in one request (a hundred thousand values) holds a keystroke's
 * few rows, asked meanwhile, until all of it is read; read in pieces of a few thousand values,
 * one after the other in the same transaction, the keystroke's rows wait for one piece.
 */
const CHUNKS_PER_PIECE = 8;

/**
 * A column of every chunk: chunk -> values, in each chunk's row order. In one request, the
 * quickest whole; `inPieces` for a read ahead of use, which other reads may pass.
 */
export async function readColumn(
  db: Dexie,
  head: StoredHead,
  col: string,
  inPieces = false,
): Promise<Map<number, string[]>> {
  const ns = Object.keys(head.chunks)
    .map(Number)
    .sort((a, b) => a - b);
  const step = inPieces ? CHUNKS_PER_PIECE : Math.max(ns.length, 1);
  const out = new Map<number, string[]>();
  // The first request starts below the lowest chunk and the last ends above the highest: every
  // record of the column is read, as one range would read it.
  for (let i = 0; i === 0 || i < ns.length; i += step) {
    const records = await db
      .table<StoredColumn>(CHUNK_STORE)
      .where('[table+col+n]')
      .between(
        [head.table, col, i === 0 ? -Infinity : ns[i]],
        [head.table, col, ns[i + step] ?? Infinity],
        true,
        false,
      )
      .toArray();
    for (const r of records) out.set(r.n, unpackColumn(r.text, head.sizes[r.n] ?? 0));
  }
  return out;
}

/** Columns as read with a head: column -> chunk -> values. */
export interface ReadColumns {
  head: StoredHead;
  columns: Map<string, Map<number, string[]>>;
}

/**
 * Columns read earlier (`early`), made to agree with `head`, read since: the chunks whose
 * version moved meanwhile are read again, the chunks gone are left out. Inside a transaction
 * with `head`.
 */
export async function agreeWithHead(
  db: Dexie,
  early: ReadColumns,
  head: StoredHead,
): Promise<Map<string, Map<number, string[]>>> {
  const ns = Object.keys(head.chunks).map(Number);
  const moved = ns.filter((n) => early.head.chunks[n] !== head.chunks[n]);
  const fields = [...early.columns.keys()];
  const fresh = moved.length ? await readChunkColumns(db, head, moved, fields) : new Map();
  const agreed = new Map<string, Map<number, string[]>>();
  for (const field of fields) {
    const column = early.columns.get(field);
    const values = (n: number) =>
      early.head.chunks[n] === head.chunks[n] ? column?.get(n) : fresh.get(n)?.get(field);
    agreed.set(field, new Map(ns.map((n) => [n, values(n) ?? []])));
  }
  return agreed;
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
