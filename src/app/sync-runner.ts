/**
 * The window's sync, as the rest of the app calls it. The scheduler, the server probe and
 * everything they import (window-sync.ts) load after the first screen has painted, so the
 * sign-in and dashboard first load does not carry them: each call here waits for that module
 * (a call made before it loaded makes it load at once; nothing on the first screen awaits it).
 */
import type { SyncReport } from '../sync/sync-now';

type WindowSync = typeof import('./window-sync');

let loaded: Promise<WindowSync> | undefined;

function windowSync(): Promise<WindowSync> {
  loaded ??= import('./window-sync').then(
    (sync) => {
      sync.startWindowSync();
      return sync;
    },
    (error: unknown) => {
      loaded = undefined; // a later call tries again
      throw error;
    },
  );
  return loaded;
}

/** Sync now if it can help; coalesces calls made while a round runs. */
export async function requestSync(): Promise<SyncReport | null> {
  return (await windowSync()).requestSync();
}

/**
 * A sync the administrator asked for: it waits for a round already under way (it may have
 * begun before what they want sent), then runs one of its own and reports it.
 */
export async function syncOnRequest(): Promise<SyncReport | null> {
  return (await windowSync()).syncOnRequest();
}

/** After a change was saved locally. */
export function changeSaved(): void {
  windowSync().then(
    (sync) => sync.changeSaved(),
    (error: unknown) => console.error('Sync failed to load', error),
  );
}

/** At start, once the first screen has painted (main.tsx, first-screen.ts): the sync machinery loads. */
export function startSyncRunner(): void {
  windowSync().catch((error) => console.error('Sync failed to load', error));
}
