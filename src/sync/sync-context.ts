/** What every sync job works with: the local store and the API client. */
import type { LocalDb } from '../db/database';
import type { ApiClient } from './api/api-client';

export interface SyncContext {
  db: LocalDb;
  api: ApiClient;
  /** Entries in flight at once (independent entries only). */
  concurrency?: number;
}
