/**
 * Rule 1's only other exit: the administrator discards a change on purpose. The local store
 * goes back to what the server has: a discarded add removes its record, a discarded edit,
 * action or delete puts back the record as it was when the change began (a change to a record
 * the server deleted meanwhile removes it), and the next pull reads the record's table from
 * the start (the server may have changed or deleted it meanwhile).
 *
 * A discard can be undone for a moment: it hands back the entry exactly as it was (same
 * `seq`, so the same place in the queue; payload with its files, attempts, Idempotency-Key)
 * and the record as the screens showed it, and `undoDiscard` puts both back. Until the
 * administrator clears them, notes of discarded changes stay in meta, so the outbox does not
 * claim that every change reached the server.
 */
import { entityByName } from '../../contract/entities';
import type { LocalDb, Row } from '../database';
import { writeCursor } from '../meta';
import type { OutboxEntry } from './outbox-entry';

export interface DiscardedChange {
  /** The entry as it was stored. */
  entry: OutboxEntry;
  /** The record with the change applied, as it was before the discard; null when there was none. */
  row: Row | null;
}

/** A change that was discarded unsent, as the outbox remembers it. */
export interface DiscardNote {
  /** The entry's id. */
  id: string;
  /** What it was, in the administrator's words ('Edit Class “Grade 9”'). */
  label: string;
  at: number;
}

const NOTES = 'discardedUnsent';
const MAX_NOTES = 50;

export async function readDiscardNotes(db: LocalDb): Promise<DiscardNote[]> {
  const rec = await db.meta.get(NOTES);
  return Array.isArray(rec?.value) ? (rec.value as DiscardNote[]) : [];
}

async function writeDiscardNotes(db: LocalDb, notes: DiscardNote[]): Promise<void> {
  await db.meta.put({ key: NOTES, value: notes.slice(-MAX_NOTES) });
}

export async function clearDiscardNotes(db: LocalDb): Promise<void> {
  await db.meta.delete(NOTES);
}

/**
 * Discards the entry as it is stored now (not as the caller last saw it). Nothing happens to
 * an entry that is being sent or has left the queue meanwhile: the result is then null.
 */
export async function discardEntry(
  db: LocalDb,
  entry: OutboxEntry,
  label = '',
): Promise<DiscardedChange | null> {
  const entity = entityByName(entry.entity);
  const table = db.rows(entity);
  return db.transaction('rw', [db.outbox, table, db.meta], async () => {
    const current = await db.outbox.get(entry.seq);
    if (!current || current.status === 'sending') return null;
    const row = (await table.get(current.key)) ?? null;
    await db.outbox.delete(current.seq);
    if (current.op === 'add' || current.goneOnServer) await table.delete(current.key);
    else await restoreBase(db, current);
    // While the change was queued, pulls kept the row as it was here and moved past what the
    // server did to it (a change, its deletion). The next pull reads this table from the start.
    await writeCursor(db, entity.table, null);
    await writeDiscardNotes(db, [...(await readDiscardNotes(db)), { id: current.id, label, at: Date.now() }]);
    return { entry: current, row };
  });
}

/** Puts a discarded change back as it was; false when its place in the queue was taken. */
export async function undoDiscard(db: LocalDb, discarded: DiscardedChange): Promise<boolean> {
  const { entry, row } = discarded;
  const entity = entityByName(entry.entity);
  const table = db.rows(entity);
  return db.transaction('rw', [db.outbox, table, db.meta], async () => {
    if (await db.outbox.get(entry.seq)) return false;
    await db.outbox.put(entry);
    if (row) await table.put(row);
    await writeDiscardNotes(
      db,
      (await readDiscardNotes(db)).filter((n) => n.id !== entry.id),
    );
    return true;
  });
}

/** Puts back the record as it was before the change (a refused delete, a discarded edit). */
export async function restoreBase(db: LocalDb, entry: OutboxEntry): Promise<void> {
  if (!entry.base) return;
  const entity = entityByName(entry.entity);
  await db.rows(entity).put({ ...entry.base, [entity.key]: entry.key });
}
