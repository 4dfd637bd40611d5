/**
 * The outbox screen's live view of the queue and of changes discarded unsent
 * (src/app/outbox/outbox-queue.ts).
 */

import { type DiscardNote, type QueueItem, readDiscarded, readQueue } from '../../app/outbox/outbox-queue';
import { useLiveQuery } from '../live-query';

export function useQueueView(): QueueItem[] | undefined {
  return useLiveQuery(readQueue, []);
}

export function useDiscardNotes(): DiscardNote[] {
  return useLiveQuery(readDiscarded, []) ?? [];
}
