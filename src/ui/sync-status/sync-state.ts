/** The top bar's live view of the queue (src/app/sync-status/queue-summary.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import {
  type ListProgress,
  readProgress,
  readQueueCounts,
  readSync,
  type SyncState,
} from '../../app/sync-status/queue-summary';

export type { ListProgress };

export function useQueueCounts(): { waiting: number; failed: number } | undefined {
  return useLiveQuery(readQueueCounts, []);
}

export function useSyncState(): SyncState | undefined {
  return useLiveQuery(readSync, []);
}

/** Lists being received, by local table (empty when none is). */
export function usePullProgress(): Record<string, ListProgress> | undefined {
  return useLiveQuery(readProgress, []);
}
