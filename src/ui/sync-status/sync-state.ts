/** The top bar's live view of the queue (src/app/sync-status/queue-summary.ts). */
import {
  type ListProgress,
  type QueueCounts,
  readProgress,
  readQueueCounts,
  readSync,
  type SyncState,
} from '../../app/sync-status/queue-summary';
import { connectionOf } from '../../app/sync-status/status-words';
import { useLiveQuery } from '../live-query';
import { useOnline } from './use-online';

export type { ListProgress };

export function useQueueCounts(): QueueCounts | undefined {
  return useLiveQuery(readQueueCounts, []);
}

export function useSyncState(): SyncState | undefined {
  return useLiveQuery(readSync, []);
}

/** Lists being received, by local table (empty when none is). */
export function usePullProgress(): Record<string, ListProgress> | undefined {
  return useLiveQuery(readProgress, []);
}

/** Whether the top bar says Online: a network, the server answering, a session. */
export function useConnected(): boolean {
  return connectionOf(useOnline(), useSyncState()) === 'online';
}
