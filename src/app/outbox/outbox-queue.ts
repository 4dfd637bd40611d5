/**
 * The outbox screen's door to the queue: each change as the administrator reads it, and
 * what they can do with it (Retry, settle a conflict, Discard and its Undo). Loaded with that
 * screen.
 */
import { readSignedInUser } from '../../db/meta';
import {
  clearDiscardNotes,
  type DiscardedChange,
  type DiscardNote,
  discardEntry,
  readDiscardNotes,
  undoDiscard,
} from '../../db/outbox/discard';
import type { OutboxEntry } from '../../db/outbox/outbox-entry';
import { type Choice, resolveConflict } from '../../db/outbox/queue-actions';
import { loadIdResolver } from '../../db/resolve';
import { type QueueItem, queueView } from '../../sync/queue-view';
import { changeSaved } from '../sync-runner';
import { db } from '../window-context';

export { staleWarning } from '../../sync/queue-view';
export { type RetryOutcome, retryAndSend, type SendOutcome, sendNow } from './send-on-request';
export type { Choice, DiscardedChange, DiscardNote, OutboxEntry, QueueItem };

/** The outbox as the outbox screen shows it, with whose each change is. */
export async function readQueue(): Promise<QueueItem[]> {
  const entries = await db.outbox.toArray();
  return queueView(entries, await loadIdResolver(db), Date.now(), await readSignedInUser(db));
}

export async function settleConflict(seq: number, choices: Record<string, Choice>): Promise<void> {
  await resolveConflict(db, seq, choices);
  changeSaved();
}

/** What a change was, in the outbox's words ('Edit Class “Grade 9”'). */
export const changeLabel = (item: QueueItem): string => `${item.action} ${item.record}`;

/**
 * Discards a change on purpose; the record goes back to what the server has. Returns what
 * `undoDiscardChange` needs to put it back, or null when it was being sent or already left.
 */
export function discardChange(item: QueueItem): Promise<DiscardedChange | null> {
  return discardEntry(db, item.entry, changeLabel(item));
}

export async function undoDiscardChange(discarded: DiscardedChange): Promise<boolean> {
  const restored = await undoDiscard(db, discarded);
  if (restored) changeSaved();
  return restored;
}

/** Changes discarded unsent, until the administrator clears the list. */
export const readDiscarded = (): Promise<DiscardNote[]> => readDiscardNotes(db);
export const clearDiscarded = (): Promise<void> => clearDiscardNotes(db);
