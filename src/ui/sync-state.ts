/** The top bar's live view of the queue (src/app/queue-state.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import { readQueueCounts, readSync, type SyncState } from '../app/queue-state';

export function useQueueCounts(): { waiting: number; failed: number } | undefined {
  return useLiveQuery(readQueueCounts, []);
}

export function useSyncState(): SyncState | undefined {
  return useLiveQuery(readSync, []);
}
