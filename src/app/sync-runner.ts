/**
 * When the window syncs. The service worker replays on Background Sync where the browser
 * has it; the window is the fallback everywhere: at start, on reconnect, on focus, on a
 * timer, after each change, and at the time the earliest retry is due. The Web Lock in
 * src/sync keeps the window and the worker from replaying at the same time.
 */
import { SYNC_TAG } from '../sync/config';
import type { SyncReport } from '../sync/sync-now';
import { syncContext } from './context';
import { isSignedIn } from './session';

const PERIOD_MS = 30_000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let running: Promise<SyncReport | null> | null = null;
/** A change arrived while a round ran: run once more after it. */
let again = false;

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

function scheduleRetry(report: SyncReport): void {
  clearTimeout(retryTimer);
  const at = report.replay.nextAttemptAt;
  if (at !== null && !report.replay.paused)
    retryTimer = setTimeout(() => void requestSync(), Math.max(0, at - Date.now()) + 50);
}

/** Sync now if it can help; coalesces calls made while a round runs. */
export function requestSync(): Promise<SyncReport | null> {
  if (!isSignedIn() || !navigator.onLine) return Promise.resolve(null);
  if (running) {
    again = true;
    return running;
  }
  // The sync engine loads after the first screen, off the critical path.
  running = Promise.all([import('../sync/sync-now'), syncContext()])
    .then(([{ syncNow }, ctx]) => syncNow(ctx))
    .then((report) => {
      scheduleRetry(report);
      return report;
    })
    .catch((error) => {
      console.error('Sync failed', error);
      return null;
    })
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        void requestSync();
      }
    });
  return running;
}

/**
 * A sync the administrator asked for: it waits for a round already under way (it may have
 * begun before what they want sent), then runs one of its own and reports it.
 */
export async function syncOnRequest(): Promise<SyncReport | null> {
  while (running) await running;
  return requestSync();
}

/** After a change was saved locally. */
export function changeSaved(): void {
  void registerBackgroundSync();
  void requestSync();
}

export function startSyncRunner(): void {
  window.addEventListener('online', () => void requestSync());
  window.addEventListener('focus', () => void requestSync());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void requestSync();
  });
  setInterval(() => void requestSync(), PERIOD_MS);
  // The first sync waits for the first screen: a cold start paints before the sync engine loads.
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
  idle(() => void requestSync(), { timeout: 2000 });
  if (isSignedIn() && navigator.onLine)
    void import('./geography')
      .then(({ keepGeography }) => keepGeography())
      .catch((error) => console.warn(error));
}
