/**
 * Dexie's live queries, each run through an async function. Dexie follows a query's reads
 * across awaits of other promises only when the query is itself an async function: a plain
 * arrow calling an async helper (`() => getRecord(entity, id)`) stops being watched at the
 * helper's first await of a promise that is not Dexie's, and the screen then never hears of
 * the record it waits for (an edit form opened before the first sync has brought its record).
 * Every screen reads live data through this hook, never dexie-react-hooks directly.
 */
import { useLiveQuery as dexieLiveQuery } from 'dexie-react-hooks';

export function useLiveQuery<T>(read: () => Promise<T> | T, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, D>(read: () => Promise<T> | T, deps: unknown[], initial: D): T | D;
export function useLiveQuery<T, D>(read: () => Promise<T> | T, deps: unknown[] = [], initial?: D) {
  return dexieLiveQuery(async () => read(), deps, initial);
}
