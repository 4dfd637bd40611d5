/// <reference lib="webworker" />
/**
 * The sync worker: the window's sync rounds (src/sync/sync-now.ts) off its main thread. A first
 * sync reads, parses and writes some hundred megabytes of JSON; in the window its work, and
 * the garbage collector's pauses for it, made tasks of over 100 ms on a slow tablet, which a
 * tap or a keystroke would wait for. Here they delay nothing the administrator does. The
 * screens hear what it writes as they hear the service worker's (Dexie relays the store's
 * changes to every context of the origin); the Web Lock in src/sync keeps it, the service
 * worker and other tabs from replaying at the same time.
 */
import { errorMessage } from './db/error-message';
import { openLocalDb } from './db/open';
import { createApi } from './sync/api/api-client';
import type { SyncContext } from './sync/sync-context';
import { syncNow } from './sync/sync-now';
import { API_ROOT } from './sync/sync-settings';
import type { FromSyncWorker, SyncAsked } from './sync/sync-worker-protocol';

declare const self: DedicatedWorkerGlobalScope;

let context: SyncContext | undefined;
const post = (message: FromSyncWorker) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<SyncAsked>) => {
  const { id } = event.data;
  try {
    context ??= { db: openLocalDb(), api: createApi({ root: API_ROOT }), online: () => navigator.onLine };
    post({ type: 'synced', id, report: await syncNow(context) });
  } catch (error) {
    post({ type: 'failed', id, message: errorMessage(error) });
  }
};
