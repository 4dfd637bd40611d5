/**
 * The window's one local store and API client. The store opens from the entity catalogue,
 * so the first screen does not load the full descriptions; the API client (and the HTTP
 * library under it) loads on first use, which is after the first screen has rendered.
 * Screens reach both only through this layer (records.ts, app/outbox/outbox-queue.ts,
 * app/sync-status/queue-summary.ts).
 */
import { DEFAULT_DB_NAME, LocalDb } from '../db/database';
import type { ApiClient } from '../sync/api/api-client';
import type { SyncContext } from '../sync/sync-context';
import { API_ROOT } from '../sync/sync-settings';
import { catalogue } from './catalogue/built-catalogue';

export const db = new LocalDb(DEFAULT_DB_NAME, catalogue.stores, catalogue.lists);

let api: Promise<ApiClient> | undefined;

export function loadApi(): Promise<ApiClient> {
  api ??= import('../sync/api/api-client').then(({ createApi }) => createApi({ root: API_ROOT }));
  return api;
}

export async function syncContext(): Promise<SyncContext> {
  return { db, api: await loadApi(), online: () => navigator.onLine };
}
