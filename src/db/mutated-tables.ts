/**
 * Which tables of a database a Dexie `storagemutated` event names, and which rows: this
 * context's writes, other tabs', the service worker's (Dexie carries them across). The list
 * engine, the list worker's counts watches and the dashboard follow writes by table this way.
 * No DOM.
 */
import Dexie, { cmp, type IndexableType, type IntervalTree, type ObservabilitySet, RangeSet } from 'dexie';

/**
 * The tables of `db` among the event's parts (`idb://<db>/<table>/...`) whose rows were written.
 * A write of nothing still names its table, with empty ranges (a pull of a list with no news
 * deletes no rows, `bulkDelete([])`, in every tab's sync, several times a minute): such a table
 * is left out, so the list engine does not bring it up to date (its reads of the index wait
 * behind the sync's writes: up to 2.3 s in the dashboard's benchmark) for nothing.
 */
export function mutatedTables(db: Dexie, parts: Record<string, unknown>): Set<string> {
  const prefix = `idb://${db.name}/`;
  const tables = new Set<string>();
  for (const [part, ranges] of Object.entries(parts))
    if (part.startsWith(prefix) && !isEmptyRanges(ranges))
      tables.add(part.slice(prefix.length).split('/')[0]);
  return tables;
}

/** An empty range set (a RangeSet, or another tab's plain copy of one): its root has no `from`. */
const isEmptyRanges = (ranges: unknown) =>
  typeof ranges === 'object' && ranges !== null && !('from' in ranges);

/**
 * The primary keys written, by table; null for a table where the event names a range instead
 * of keys (Dexie does for a clear, a delete of a range, and a write of 50 rows or more).
 */
export type WrittenKeys = Map<string, IndexableType[] | null>;

/**
 * The rows of `db` an event says were written: its primary-key part (`idb://<db>/<table>/`)
 * of each table, an interval tree (a RangeSet in this context, a plain copy of one from
 * another), read as keys where every interval is a single key.
 */
export function mutatedKeys(db: Dexie, parts: ObservabilitySet): WrittenKeys {
  const out: WrittenKeys = new Map();
  for (const table of mutatedTables(db, parts)) {
    const tree = parts[`idb://${db.name}/${table}/`];
    if (!tree) {
      out.set(table, null);
      continue;
    }
    const keys: IndexableType[] = [];
    for (const node of RangeSet(tree as IntervalTree)) {
      if (cmp(node.from, node.to) !== 0) {
        out.set(table, null);
        break;
      }
      keys.push(node.from);
    }
    if (!out.has(table)) out.set(table, keys);
  }
  return out;
}

/** Adds `more` to `into`: keys together, and a range (null) wins. */
export function addWrittenKeys(into: WrittenKeys, more: WrittenKeys): void {
  for (const [table, keys] of more) {
    const had = into.get(table);
    into.set(table, had === null || keys === null ? null : [...(had ?? []), ...keys]);
  }
}

/**
 * Calls `listener` with the tables of `db` written and their rows (`WrittenKeys`), once after
 * the turn in which they were written (a save's row and outbox entry, or several writes in a
 * row, make one call). Returns the unsubscribe.
 */
export function followWrites(
  db: Dexie,
  listener: (tables: ReadonlySet<string>, keys: WrittenKeys) => void,
): () => void {
  let moved: WrittenKeys = new Map();
  const onMutated = (parts: ObservabilitySet) => {
    const first = moved.size === 0;
    addWrittenKeys(moved, mutatedKeys(db, parts));
    if (!first || moved.size === 0) return;
    setTimeout(() => {
      const changed = moved;
      moved = new Map();
      listener(new Set(changed.keys()), changed);
    }, 0);
  };
  Dexie.on('storagemutated', onMutated);
  return () => Dexie.on('storagemutated').unsubscribe(onMutated);
}
