/**
 * The queue as the top bar and the outbox screen see it: waiting and failed changes and the
 * shared sync state (IndexedDB, so the service worker's progress shows too).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { appContext } from '../app/context';
import { changeSaved } from '../app/sync-runner';
import { discardEntry } from '../db/discard';
import { readSyncState, type SyncState } from '../db/meta';
import type { OutboxEntry } from '../db/outbox-entry';

const { db } = appContext;

export type { OutboxEntry, SyncState };

export function useOutbox(): OutboxEntry[] | undefined {
  return useLiveQuery(() => db.outbox.orderBy('seq').toArray(), []);
}

export function useSyncState(): SyncState | undefined {
  return useLiveQuery(() => readSyncState(db), []);
}

export async function retryEntry(seq: number): Promise<void> {
  await db.outbox.update(seq, { status: 'pending', nextAttemptAt: 0, lastError: null });
  changeSaved();
}

/** Discards a change on purpose; the record goes back to what the server has. */
export function discardChange(entry: OutboxEntry): Promise<void> {
  return discardEntry(db, entry);
}
