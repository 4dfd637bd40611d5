/**
 * The outbox screen's door to the queue: each change as the administrator reads it, and
 * what they can do with it (Retry, settle a conflict, Discard). Loaded with that screen.
 */
import { discardEntry } from '../db/discard';
import type { OutboxEntry } from '../db/outbox-entry';
import { type Choice, resolveConflict, retryEntry } from '../db/queue-actions';
import { loadIdResolver } from '../db/resolve';
import { type QueueItem, queueView } from '../sync/queue-view';
import { db } from './context';
import { changeSaved } from './sync-runner';

export { staleWarning } from '../sync/queue-view';
export type { Choice, OutboxEntry, QueueItem };

/** The outbox as the outbox screen shows it. */
export async function readQueue(): Promise<QueueItem[]> {
  const entries = await db.outbox.toArray();
  return queueView(entries, await loadIdResolver(db), Date.now());
}

export async function retryChange(seq: number): Promise<void> {
  await retryEntry(db, seq);
  changeSaved();
}

export async function settleConflict(seq: number, choices: Record<string, Choice>): Promise<void> {
  await resolveConflict(db, seq, choices);
  changeSaved();
}

/** Discards a change on purpose; the record goes back to what the server has. */
export function discardChange(entry: OutboxEntry): Promise<void> {
  return discardEntry(db, entry);
}
