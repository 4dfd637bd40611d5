/**
 * A page of a list in key order (its default order for most lists: ids as numbers, records
 * made here after them), without a search or filter, straight from the list index: the head
 * gives each chunk's size, chunks follow the ids, so the page is found by reading the head and
 * the keys of the one or two chunks that hold it. A list paints its first page this way while its engine
 * loads (a cold start, a first open), and the engine's answer, the same one, follows.
 *
 * Exact or nothing: null when the index cannot answer this way (no index yet, another
 * projection, many rows under keys that are not ids, or such a key that reads as a number and
 * would sort among the ids).
 */
import type Dexie from 'dexie';
import { fieldsSignature, KEY_COLUMN } from '../list-index/chunk';
import type { ListProjection } from '../list-index/projection';
import { INDEX_STORES, readChunkColumns, readHead } from '../list-index/read';
import type { PageAnswer } from './entity-index';
import { compareFor } from './order';

/** Beyond this many rows under other keys, the engine answers. */
const MOST_OTHER_KEYS = 2000;

const byNumber = compareFor('number');
const byKey = (a: string, b: string) => byNumber(a, b) || (a < b ? -1 : a > b ? 1 : 0);

export function keyOrderPage(
  db: Dexie,
  projection: ListProjection,
  q: { page?: number; pageSize: number; dir: 'asc' | 'desc' },
): Promise<PageAnswer | null> {
  return db.transaction('r', INDEX_STORES, async () => {
    const head = await readHead(db, projection.table);
    if (!head?.sizes || head.fields !== fieldsSignature(projection.key, projection.fields)) return null;
    const numbered = Object.keys(head.chunks)
      .map(Number)
      .filter((n) => n >= 0)
      .sort((a, b) => a - b);
    // Keys that are not ids (temporary ids, by sequence or by hash: chunk.ts `chunkOf`) are all
    // read and sorted: their chunks are not in key order.
    const otherChunks = Object.keys(head.chunks)
      .map(Number)
      .filter((n) => n < 0);
    const others = otherChunks.reduce((sum, n) => sum + head.sizes[n], 0);
    if (others > MOST_OTHER_KEYS) return null;

    const numberedTotal = numbered.reduce((sum, n) => sum + head.sizes[n], 0);
    const total = numberedTotal + others;
    const pages = Math.max(1, Math.ceil(total / q.pageSize));
    const page = Math.min(Math.max(1, q.page ?? 1), pages);
    // The page's places in ascending key order.
    const first = q.dir === 'asc' ? (page - 1) * q.pageSize : Math.max(0, total - page * q.pageSize);
    const end = q.dir === 'asc' ? Math.min(total, page * q.pageSize) : total - (page - 1) * q.pageSize;
    const wanted: number[] = [];
    let from = -1;
    let at = 0;
    for (const n of numbered) {
      const size = head.sizes[n];
      if (at < end && at + size > first) {
        if (from < 0) from = at;
        wanted.push(n);
      }
      at += size;
    }
    // The other keys and the page's chunks of ids in one read (the head's sizes told which).
    const read = await readChunkColumns(db, head, [...otherChunks, ...wanted], [KEY_COLUMN]);
    const keysOf = (n: number) => read.get(n)?.get(KEY_COLUMN) ?? [];
    const otherKeys = otherChunks.flatMap(keysOf).sort(byKey);
    if (otherKeys.some((k) => Number.isFinite(Number(k)) && k !== '')) return null;
    const ordered = wanted.flatMap((n) => [...keysOf(n)].sort(byKey));
    const keys = [
      ...ordered.slice(Math.max(0, first - from), Math.max(0, Math.min(end, numberedTotal) - from)),
      ...otherKeys.slice(Math.max(0, first - numberedTotal), Math.max(0, end - numberedTotal)),
    ];
    if (q.dir === 'desc') keys.reverse();
    return { keys, total, page, pageSize: q.pageSize };
  });
}
