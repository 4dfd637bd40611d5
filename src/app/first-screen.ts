/**
 * Work the first screen does not need (the sync machinery, the service worker's registration
 * and update check, the storage request) starts after that screen has painted, when the window
 * is idle: on a cold start onto a list, loading and starting it shared the main thread with
 * the list's first page. A start on an entity's screen (a list reopened offline, a bookmark)
 * waits for that screen to say it has painted (`firstScreenShown`); any other start counts as
 * shown at once. Whatever happens, the work starts within a few seconds.
 */
import { isSignedIn } from './session';
import { NOT_ENTITY_PATH } from './start-route';

/** The start opens an entity's screen (the same test as the start script's, start-route.ts). */
export const startsOnEntityScreen = () => isSignedIn() && !NOT_ENTITY_PATH.test(location.pathname);

let shown = () => {};
const painted = new Promise<void>((resolve) => {
  shown = resolve;
  setTimeout(resolve, 3000);
});

/** The first screen has painted what it shows first (a list: its first page). */
export const firstScreenShown = () => shown();

/** Runs `work` once the first screen has painted and the window is idle (or 2 s after). */
export function afterFirstScreen(work: () => void): void {
  if (!startsOnEntityScreen()) shown();
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
  void painted.then(() => idle(work, { timeout: 2000 }));
}
