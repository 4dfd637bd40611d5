/**
 * The queue as the top bar sees it: waiting and failed changes and the shared sync state
 * (IndexedDB, so the service worker's progress shows too). Kept small: it is on every
 * screen's first load.
 */
import { type ListProgress, readPullProgress, readSyncState, type SyncState } from '../../db/meta';
import { db } from '../window-context';

export type { ListProgress, SyncState };

/**
 * How many changes wait and how many failed or hold a conflict. Counted on the status index:
 * the entries themselves (payloads, files) are not read, though the count changes with every
 * reply a drain applies.
 */
export interface QueueCounts {
  waiting: number;
  failed: number;
  /** The seqs of the changes being sent now (a large file's progress is theirs). */
  sending: number[];
}

export function readQueueCounts(): Promise<QueueCounts> {
  return db.transaction('r', db.outbox, async () => {
    const all = await db.outbox.count();
    const failed = await db.outbox.where('status').anyOf('failed', 'conflict').count();
    const sending = (await db.outbox.where('status').equals('sending').primaryKeys()) as number[];
    return { waiting: all - failed, failed, sending };
  });
}

export const readSync = (): Promise<SyncState> => readSyncState(db);

/** Lists being received (a first sync, or one resumed), by local table, wherever the pull runs. */
export const readProgress = (): Promise<Record<string, ListProgress>> => readPullProgress(db);
