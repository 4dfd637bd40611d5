/**
 * Rule 1's only other exit: the administrator discards a change on purpose. The local store
 * goes back to what the server has: a discarded add removes its record, a discarded edit,
 * action or delete puts back the record as it was when the change began.
 */
import { entityByName } from '../contract/entities';
import type { LocalDb } from './database';
import type { OutboxEntry } from './outbox-entry';

export async function discardEntry(db: LocalDb, entry: OutboxEntry): Promise<void> {
  const entity = entityByName(entry.entity);
  const table = db.rows(entity);
  await db.transaction('rw', [db.outbox, table], async () => {
    await db.outbox.delete(entry.seq);
    if (entry.op === 'add') await table.delete(entry.key);
    else await restoreBase(db, entry);
  });
}

/** Puts back the record as it was before the change (a refused delete, a discarded edit). */
export async function restoreBase(db: LocalDb, entry: OutboxEntry): Promise<void> {
  if (!entry.base) return;
  const entity = entityByName(entry.entity);
  await db.rows(entity).put({ ...entry.base, [entity.key]: entry.key });
}
