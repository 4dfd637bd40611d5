/**
 * Many rows changed in one transaction, written in bulk (a bulk action's slice, an
 * import's slice). A row that no outbox entry names, under a key the server gave it, leaves
 * `mutate` nothing to fold into, cancel or drop: its change is the row written (or deleted) and
 * one new entry based on the row as it stood (the entry builders of mutations/). For such
 * "quiet" rows a `RowBatch` gathers those writes and flushes them as one bulkPut (or bulkDelete)
 * of the rows and one bulkAdd of the entries: the list index's middleware then reads and writes
 * each chunk once per flush instead of once per row, and a slice of a hundred rows makes a few
 * requests instead of about ten a row. Other rows go through `mutate`; callers flush before each
 * of those, so the outbox holds the entries in the order the one-by-one path gives them.
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { isTempId } from '../ids';
import type { NewEntry } from '../outbox/outbox-entry';
import { dropFromSets } from './delete';

/** The keys among these that are the server's and that no outbox entry names. */
export async function quietKeys(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<Set<string>> {
  const candidates = [...new Set(keys.filter((key) => !isTempId(key)))];
  if (candidates.length === 0) return new Set();
  const named = await db.outbox
    .where('[entity+key]')
    .anyOf(candidates.map((key) => [entity.name, key]))
    .keys();
  const queued = new Set(named.map((k) => String((k as unknown as [string, string])[1])));
  return new Set(candidates.filter((key) => !queued.has(key)));
}

/** The current rows of these keys (one bulk read), by key; keys without a row are left out. */
export async function rowsByKey(
  db: LocalDb,
  entity: EntityDescription,
  keys: Iterable<string>,
): Promise<Map<string, Row>> {
  const wanted = [...keys];
  const found = wanted.length ? await db.rows(entity).bulkGet(wanted) : [];
  const out = new Map<string, Row>();
  wanted.forEach((key, i) => {
    const row = found[i];
    if (row) out.set(key, row);
  });
  return out;
}

/**
 * The writes of quiet rows, gathered until `flush`. A row written twice (an import's edit and
 * its status) keeps its last state; its entries stay in the order they were given.
 */
export class RowBatch {
  private readonly written = new Map<string, Row>();
  private readonly removed: string[] = [];
  private entries: NewEntry[] = [];

  constructor(
    private readonly db: LocalDb,
    private readonly entity: EntityDescription,
  ) {}

  /** Whether anything waits to be written. */
  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** Whether this batch changes the row: a change of it through `mutate` must wait for the flush. */
  has(key: string): boolean {
    return this.written.has(key) || this.removed.includes(key);
  }

  put(key: string, row: Row, entry: NewEntry): void {
    this.written.set(key, row);
    this.entries.push(entry);
  }

  delete(key: string, entry: NewEntry): void {
    this.removed.push(key);
    this.entries.push(entry);
  }

  /**
   * Writes what was gathered (only what there is: an empty bulk operation makes no request) and
   * answers the outbox seqs of its entries, in order. Callers inside a transaction skip an empty
   * batch: Dexie keeps its transaction across only so many awaits that are not the store's (a
   * slice's worth of them lost it: PrematureCommitError).
   */
  async flush(): Promise<number[]> {
    const { db, entity } = this;
    const rows = [...this.written.values()];
    const removed = this.removed.splice(0);
    const entries = this.entries;
    this.written.clear();
    this.entries = [];
    if (rows.length) await db.rows(entity).bulkPut(rows);
    if (removed.length) {
      await db.rows(entity).bulkDelete(removed);
      await dropFromSets(db, entity, removed);
    }
    if (entries.length === 0) return [];
    return (await db.outbox.bulkAdd(entries, { allKeys: true })) as number[];
  }
}
