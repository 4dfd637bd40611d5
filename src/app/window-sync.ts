/**
 * When the window syncs (loaded after the first screen by sync-runner.ts, which the rest of
 * the app calls). The service worker replays on Background Sync where the browser
 * has it; the window is the fallback everywhere: at start, on reconnect, when the page is
 * shown again, on focus, on a timer, after each change, at the time the earliest retry is
 * due, as soon as the server answers again after it could not be reached (the scheduler
 * in src/sync/scheduler.ts probes it meanwhile), and when the server's live stream says
 * something was committed (live-pokes.ts; the timer then only backs it up). The rounds run in
 * the sync worker (sync-worker-client.ts). The Web Lock in src/sync keeps it and the service
 * worker from replaying at the same time.
 */

import Dexie from 'dexie';
import { mutatedTables } from '../db/mutated-tables';
import { SyncScheduler } from '../sync/scheduler';
import type { SyncReport } from '../sync/sync-now';
import { SNAPSHOTS_STALE_COOKIE, SYNC_TAG } from '../sync/sync-settings';
import { keepLiveStream } from './live-pokes';
import { forgetStartSnapshots, isSignedIn } from './session';
import { isLive } from './sync-status/live-flag';
import { syncInWorker } from './sync-worker-client';
import { db, syncContext } from './window-context';

const PERIOD_MS = 30_000;

const scheduler = new SyncScheduler({
  context: syncContext,
  // In its own worker, started by the first round, off the first screen's path.
  sync: () => syncInWorker(),
  canSync: () => isSignedIn() && navigator.onLine,
  hidden: () => document.visibilityState === 'hidden',
  onError: (error) => console.error('Sync failed', error),
});

async function registerBackgroundSync(): Promise<void> {
  try {
    const reg = await navigator.serviceWorker?.getRegistration();
    const sync = (
      reg as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined
    )?.sync;
    await sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here: the window's own triggers cover it.
  }
}

/** Sync now if it can help; coalesces calls made while a round runs. */
export function requestSync(): Promise<SyncReport | null> {
  return scheduler.request();
}

/**
 * A sync the administrator asked for: it waits for a round already under way (it may have
 * begun before what they want sent), then runs one of its own and reports it.
 */
export function syncOnRequest(): Promise<SyncReport | null> {
  return scheduler.requestFresh();
}

/** After a change was saved locally. */
export function changeSaved(): void {
  void registerBackgroundSync();
  void requestSync();
}

/**
 * Offline no replayer runs, so nothing would release a change whose replayer died
 * mid-request (src/sync/dead-claims.ts): it would show as being sent, not editable, until the
 * network came back.
 */
function releaseDeadClaims(): void {
  void import('../sync/dead-claims')
    .then(({ releaseDeadClaimsIfIdle }) => releaseDeadClaimsIfIdle(db))
    .catch((error) => console.warn(error));
}

/** The service worker changed lists with no window open (src/sw.ts): the snapshots may be old. */
function forgetStartSnapshotsIfDistrusted(): void {
  if (!document.cookie.split('; ').some((c) => c.startsWith(`${SNAPSHOTS_STALE_COOKIE}=`))) return;
  forgetStartSnapshots();
  // biome-ignore lint/suspicious/noDocumentCookie: Firefox and Safari before 18.4 lack the Cookie Store API
  document.cookie = `${SNAPSHOTS_STALE_COOKIE}=; path=/; max-age=0`;
}

/** While the live stream works, the poll only backs it up: every tenth period. */
const LIVE_POLL_EVERY = 10;

/** Once, when this module has loaded (after the first screen): listen, then sync. */
export function startWindowSync(): void {
  // Before the first sync can write: the start snapshots (start-snapshot.ts) are dropped when
  // a list's rows change, written here, in another tab or by the service worker (Dexie relays
  // the events of them all). The list index's own stores are written beneath Dexie's events.
  forgetStartSnapshotsIfDistrusted();
  const listed = new Set(db.projections.map((p) => p.table));
  Dexie.on('storagemutated', (parts) => {
    for (const table of mutatedTables(db, parts)) if (listed.has(table)) return forgetStartSnapshots();
  });
  scheduler.listen({ win: window, doc: document });
  keepLiveStream(() => void requestSync());
  let periods = 0;
  setInterval(() => {
    periods++;
    if (!isLive() || periods % LIVE_POLL_EVERY === 0) void requestSync();
    releaseDeadClaims();
  }, PERIOD_MS);
  void requestSync();
  releaseDeadClaims();
  if (isSignedIn() && navigator.onLine)
    void import('./location-lists')
      .then(({ keepGeography }) => keepGeography())
      .catch((error) => console.warn(error));
}
