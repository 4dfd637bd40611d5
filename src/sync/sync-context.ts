/** What every sync job works with: the local store and the API client. */
import type { LocalDb } from '../db/database';
import type { ApiClient } from './api/api-client';

export interface SyncContext {
  db: LocalDb;
  api: ApiClient;
  /** Entries in flight at once (independent entries only). */
  concurrency?: number;
  /**
   * Whether this context has a network (its navigator.onLine); always, where not given. Replay
   * claims nothing while it has none: a claim counts as an attempt (queue-state.ts), and an
   * attempted change can no longer be cancelled by an Undo, only reversed. It is asked before
   * each claim, not once per run: a run that began online may wait for the lock, or for a
   * round, past the moment the network went.
   */
  online?: () => boolean;
}
