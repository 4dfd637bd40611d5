/**
 * The window's one local store and API client. Screens reach them only through the hooks
 * in src/ui/data.ts, never directly.
 */
import { openLocalDb } from '../db/database';
import { createApi } from '../sync/api';
import { API_ROOT } from '../sync/config';
import type { SyncContext } from '../sync/replay';

export const appContext: SyncContext = {
  db: openLocalDb(),
  api: createApi({ root: API_ROOT }),
};
