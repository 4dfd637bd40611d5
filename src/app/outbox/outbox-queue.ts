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
import { strandedBy } from '../../sync/stranded';
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

/** The later changes that discarding this one alone would leave unable to be sent. */
export async function strandedChanges(item: QueueItem): Promise<QueueItem[]> {
  const entries = await db.outbox.toArray();
  const resolve = await loadIdResolver(db);
  const stranded = new Set(strandedBy(entries, item.entry, resolve).map((e) => e.seq));
  if (stranded.size === 0) return [];
  const all = queueView(entries, resolve, Date.now(), await readSignedInUser(db));
  return all.filter((other) => stranded.has(other.entry.seq));
}

/**
 * Discards a change on purpose, with the changes that wait for it (`strandedChanges`); each
 * record goes back to what the server has. Returns what `undoDiscardChanges` needs to put them
 * back, or null when the first was being sent or already left (then nothing is discarded).
 */
export async function discardChanges(items: readonly QueueItem[]): Promise<DiscardedChange[] | null> {
  const [first, ...waiting] = items;
  const discarded = first ? await discardEntry(db, first.entry, changeLabel(first)) : null;
  if (!discarded) return null;
  const more = [];
  for (const item of waiting) more.push(await discardEntry(db, item.entry, changeLabel(item)));
  return [discarded, ...more.filter((d) => d !== null)];
}

/** Puts discarded changes back, in queue order (a change before those that wait for it). */
export async function undoDiscardChanges(discarded: readonly DiscardedChange[]): Promise<boolean> {
  let restored = true;
  for (const change of [...discarded].sort((a, b) => a.entry.seq - b.entry.seq))
    restored = (await undoDiscard(db, change)) && restored;
  changeSaved();
  return restored;
}

/** Changes discarded unsent, until the administrator clears the list. */
export const readDiscarded = (): Promise<DiscardNote[]> => readDiscardNotes(db);
export const clearDiscarded = (): Promise<void> => clearDiscardNotes(db);
