/** The outbox screen's live view of the queue (src/app/outbox.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import { type QueueItem, readQueue } from '../app/outbox';

export function useQueueView(): QueueItem[] | undefined {
  return useLiveQuery(readQueue, []);
}
