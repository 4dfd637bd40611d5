/**
 * Applying what a pull brought (design brief §2). A page of a delta (or a share of a whole
 * list) is one transaction: its rows put, its deleted ids removed, the cursor moved and the
 * list's progress written together, so an interruption leaves the store at a page's end and
 * the next pull resumes there. A row with a change still in the outbox is never overwritten or
 * removed: the administrator's change stands until the server has it.
 *
 * Inside the transaction the rows go in slices (PUT_SLICES): IndexedDB copies every row on the
 * calling thread (a structured clone, and the indexes' keys read from it), and on a slow tablet
 * a few hundred student rows hold the main thread for over 100 ms. So each task hands the store
 * slices only until its time is up, then waits for the store's answer to the first of them (a
 * new task) while the store writes the rest: the copying here and the writing in the store
 * overlap, and a slower device copies fewer rows per task instead of longer tasks. Writes are
 * plain Dexie bulkPut / bulkDelete, so whatever Dexie middleware watches the tables sees them.
 */
import type { Table } from 'dexie';
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../../db/database';
import { type ListProgress, writeCursor, writeListProgress } from '../../db/meta';
import { pendingKeys } from '../../db/queries';
import { measurer } from '../../db/user-timing';

/** User Timing of a page's transaction: opening it, its rows, its commit. */
const measure = measurer('pull');

export const PUT_SLICES = {
  /**
   * Rows per bulkPut. Not under 50: for fewer rows Dexie's change tracking records each key and
   * each indexed value of the rows, and merging those for a page cost more than the writing.
   */
  size: 50,
  /** Time (ms) one task may spend handing slices to the store before it waits for an answer. */
  taskMs: 10,
};

/**
 * The rows in slices of PUT_SLICES.size, as many a task as fit in PUT_SLICES.taskMs (one at
 * least): a slice is begun only when the last one's cost still fits, so a slow device's task
 * ends near its time instead of a slice past it. The next task begins when the store has
 * written the first slice of the one before. `now` is the clock the time is read from.
 */
export async function putInSlices(
  table: Pick<Table<Row, string>, 'bulkPut'>,
  rows: readonly Row[],
  now: () => number = () => performance.now(),
): Promise<void> {
  const { size, taskMs } = PUT_SLICES;
  const writes: Promise<unknown>[] = [];
  let at = 0;
  const next = () => {
    const write = table.bulkPut(rows.slice(at, at + size));
    // Awaited below; a failure aborts the transaction either way.
    write.catch(() => {});
    writes.push(write);
    at += size;
    return write;
  };
  while (at < rows.length) {
    const started = now();
    const first = next();
    let spent = now() - started;
    let slice = spent;
    while (at < rows.length && spent + slice <= taskMs) {
      next();
      const total = now() - started;
      slice = total - spent;
      spent = total;
    }
    await first;
  }
  await Promise.all(writes);
}

export interface PulledPage {
  rows: Row[];
  /** Ids the server deleted. */
  deleted: string[];
  /** The cursor after this page; undefined leaves it as it is (a share of a whole list). */
  cursor?: string | null;
  /** The list's progress after this page; null removes it; undefined leaves it. */
  progress?: ListProgress | null;
}

export async function applyPage(db: LocalDb, entity: EntityDescription, page: PulledPage): Promise<void> {
  const table = db.rows(entity);
  let at = performance.now();
  await db.transaction('rw', [table, db.outbox, db.meta], async () => {
    at = measure('open', at);
    const pending = await pendingKeys(db, entity);
    const rows =
      pending.size === 0 ? page.rows : page.rows.filter((r) => !pending.has(r[entity.key] as string));
    at = measure('pending', at);
    await putInSlices(table, rows);
    at = measure('rows', at);
    // Records made here and still queued are kept; one left without an entry is an orphan.
    await table.bulkDelete(page.deleted.filter((k) => !pending.has(k)));
    if (page.cursor !== undefined) await writeCursor(db, entity.table, page.cursor);
    if (page.progress !== undefined) await writeListProgress(db, entity.table, page.progress);
    at = measure('meta', at);
  });
  measure('commit', at);
}

/**
 * After a whole list (legacy server) has been written: local rows the server does not have go,
 * unless queued, and the table has no delta cursor (a server that lost the extension).
 */
export async function removeAbsent(
  db: LocalDb,
  entity: EntityDescription,
  present: ReadonlySet<string>,
  progress?: null,
): Promise<void> {
  const table = db.rows(entity);
  await db.transaction('rw', [table, db.outbox, db.meta], async () => {
    const local = (await table.toCollection().primaryKeys()) as string[];
    const absent = local.filter((k) => !present.has(k));
    const pending = absent.length === 0 ? new Set<string>() : await pendingKeys(db, entity);
    await table.bulkDelete(absent.filter((k) => !pending.has(k)));
    await writeCursor(db, entity.table, null);
    if (progress !== undefined) await writeListProgress(db, entity.table, progress);
  });
}

export interface Pulled {
  rows: Row[];
  /** Ids the server deleted since the cursor; 'all-others' for a whole list (legacy server). */
  deleted: string[] | 'all-others';
  /** The next delta cursor; null when the server has no delta pull. */
  cursor: string | null;
}

/** A whole reply in one transaction: a single document, and small lists in tests. */
export async function applyPulled(db: LocalDb, entity: EntityDescription, pulled: Pulled): Promise<void> {
  const { rows, deleted, cursor } = pulled;
  if (deleted !== 'all-others') return applyPage(db, entity, { rows, deleted, cursor });
  const table = db.rows(entity);
  await db.transaction('rw', [table, db.outbox, db.meta], async () => {
    await applyPage(db, entity, { rows, deleted: [] });
    await removeAbsent(db, entity, new Set(rows.map((r) => r[entity.key] as string)));
  });
}
