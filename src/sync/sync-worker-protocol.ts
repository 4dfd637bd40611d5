/** Messages between the window and the sync worker (src/sync-worker.ts, app/sync-worker-client.ts). */
import type { SyncReport } from './sync-now';

/** One sync round (sync-now.ts), answered by the same `id`. */
export interface SyncAsked {
  type: 'sync';
  id: number;
}

export type FromSyncWorker =
  | { type: 'synced'; id: number; report: SyncReport }
  | { type: 'failed'; id: number; message: string };
