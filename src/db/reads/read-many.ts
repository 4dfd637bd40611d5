/**
 * Reading many records at once. IndexedDB has no multi-key get, so Dexie's bulkGet makes one
 * request per key, and in Chromium each request costs far more than the record it carries
 * (about 100 µs of the browser process's time against a couple of µs to copy a small record,
 * measured with bench/drain.mjs). Where the wanted records lie among few others in one key
 * range, one read of the range is cheaper: replay's claims (outbox entries, mostly
 * consecutive) and its confirmations (rows and entries of records made offline, all under
 * temporary ids). Each helper reads the range only when it holds at most `SPREAD` times as
 * many records as are wanted, and otherwise asks key by key: the answer is the same.
 */
import type { Table } from 'dexie';

/** How many records a range may hold per wanted one before keys are read one by one. */
export const SPREAD = 20;

/** The records with these numeric keys, in their order (undefined where there is none). */
export async function getManyByNumber<T>(
  // biome-ignore lint/suspicious/noExplicitAny: any insert type (the outbox inserts entries without seq)
  table: Table<T, number, any>,
  keyPath: string,
  keys: readonly number[],
): Promise<(T | undefined)[]> {
  if (keys.length === 0) return [];
  let lo = keys[0];
  let hi = keys[0];
  for (const k of keys) {
    lo = Math.min(lo, k);
    hi = Math.max(hi, k);
  }
  if (hi - lo + 1 > SPREAD * keys.length) return table.bulkGet([...keys]);
  const found = new Map<number, T>();
  for (const record of await table.where(keyPath).between(lo, hi, true, true).toArray())
    found.set((record as Record<string, number>)[keyPath], record);
  return keys.map((k) => found.get(k));
}

/** A Dexie collection, as far as these helpers use it. */
interface Range<T> {
  clone(): { count(): Promise<number> };
  toArray(): Promise<T[]>;
}

/**
 * The records of `range` whose key (by `keyOf`) is wanted, read as one range when it holds
 * at most SPREAD records per wanted key; otherwise `oneByOne` asks for them.
 */
export async function pickFromRange<T, K>(
  range: Range<T>,
  wanted: ReadonlySet<K>,
  keyOf: (record: T) => K,
  oneByOne: () => Promise<T[]>,
): Promise<T[]> {
  if (wanted.size === 0) return [];
  if ((await range.clone().count()) > SPREAD * wanted.size) return oneByOne();
  return (await range.toArray()).filter((record) => wanted.has(keyOf(record)));
}
