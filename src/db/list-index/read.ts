/**
 * Reading the list index (middleware.ts keeps it): a table's head and all its chunks in one
 * read transaction (a list opened: one range read, not one read per row), or the few chunks a
 * change touched (a list kept current).
 */
import type Dexie from 'dexie';
import { CHUNK_STORE, HEAD_STORE, type StoredChunk, type StoredHead } from './chunk';

export interface TableIndex {
  head: StoredHead | undefined;
  chunks: StoredChunk[];
}

export function readHead(db: Dexie, table: string): Promise<StoredHead | undefined> {
  return db.table<StoredHead, string>(HEAD_STORE).get(table);
}

export function readTableIndex(db: Dexie, table: string): Promise<TableIndex> {
  return db.transaction('r', [HEAD_STORE, CHUNK_STORE], async () => ({
    head: await readHead(db, table),
    chunks: await db
      .table<StoredChunk>(CHUNK_STORE)
      .where('[table+n]')
      .between([table, -Infinity], [table, Infinity])
      .toArray(),
  }));
}

/** The head and these chunks, read together so they agree. */
export function readChunks(db: Dexie, table: string, ns: readonly number[]): Promise<TableIndex> {
  return db.transaction('r', [HEAD_STORE, CHUNK_STORE], async () => {
    const head = await readHead(db, table);
    const found = await db.table<StoredChunk>(CHUNK_STORE).bulkGet(ns.map((n) => [table, n]));
    return { head, chunks: found.filter((c) => c !== undefined) };
  });
}
