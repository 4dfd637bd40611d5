/**
 * The queue as the top bar sees it: waiting and failed changes and the shared sync state
 * (IndexedDB, so the service worker's progress shows too). Kept small: it is on every
 * screen's first load. The outbox screen's own data is in outbox-data.ts.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { appContext } from '../app/context';
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
