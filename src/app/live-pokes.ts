/**
 * The window keeps the server's live stream open while signed in, online and shown
 * (src/sync/live-stream.ts): each event the server sends after a commit makes it sync at once,
 * so another administrator's change is painted here within a second instead of at the next
 * poll. Loaded with the window's sync (window-sync.ts), after the first screen.
 *
 * While the stream works (it has said something), the top bar says Live
 * (sync-status/live-flag.ts) and the poll only backs it up, rarely. Where the server has no
 * stream (the PHP API) nothing is tried again until the next load; a cut stream is made again
 * after a pause that grows with each failure in a row (2 s to 60 s); a session that ended
 * waits for the next sign-in. Hidden, the page lets its stream go and opens one when shown.
 */
import { followLiveStream, type StreamEnd } from '../sync/live-stream';
import { API_ROOT } from '../sync/sync-settings';
import { isSignedIn } from './session';
import { setLive } from './sync-status/live-flag';

const FIRST_PAUSE_MS = 2000;
const LONGEST_PAUSE_MS = 60_000;

/** Starts keeping the stream; `poked` syncs. */
export function keepLiveStream(poked: () => void): void {
  let running: AbortController | null = null;
  let absent = false;
  let lastId: string | undefined;
  let pause = FIRST_PAUSE_MS;
  let later: ReturnType<typeof setTimeout> | undefined;

  const wanted = () => !absent && isSignedIn() && navigator.onLine && document.visibilityState !== 'hidden';

  const ended = (end: StreamEnd, controller: AbortController) => {
    if (running !== controller) return;
    running = null;
    setLive(false);
    if (end.kind === 'absent') absent = true;
    if (end.kind !== 'again') return;
    later = setTimeout(check, pause);
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  };

  const open = () => {
    const controller = new AbortController();
    running = controller;
    void followLiveStream({
      apiRoot: API_ROOT,
      fetch: (input, init) => fetch(input, init),
      lastId,
      signal: controller.signal,
      onEvent: (id) => {
        setLive(true);
        pause = FIRST_PAUSE_MS;
        // Also the first one: something may have been committed since the last pull.
        if (id !== lastId) poked();
        lastId = id;
      },
    }).then((end) => ended(end, controller));
  };

  function check(): void {
    clearTimeout(later);
    if (wanted() && !running) open();
    else if (!wanted() && running) {
      running.abort();
      running = null;
      setLive(false);
    }
  }

  window.addEventListener('online', check);
  window.addEventListener('offline', check);
  document.addEventListener('visibilitychange', check);
  // A sign-in or sign-out here (session.ts) or in another tab.
  window.addEventListener('session-changed', check);
  window.addEventListener('storage', check);
  check();
}
