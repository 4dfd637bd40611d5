/**
 * The service worker's registration and, when a new version waits, the prompt offering it
 * (vite-plugin-pwa 'prompt' mode). Loaded after the first screen has painted (main.tsx): none of
 * it is needed before, and the first load has no bytes to spare. The prompt gets a React root of
 * its own after the app's, so that the app's tree carries none of it.
 */

import { registerSW } from 'virtual:pwa-register';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

type Update = (reload?: boolean) => Promise<void>;

let applyUpdate: Update | null = null;
/** Shows the prompt again (a newer version after "Later"); null until it is first shown. */
let reopen: (() => void) | null = null;

/** Registers the worker (workbox-window registers at once: the page has loaded). */
export function registerServiceWorker(): void {
  const update = registerSW({ onNeedRefresh: () => offer(update) });
}

function offer(update: Update): void {
  applyUpdate = update;
  if (reopen) {
    reopen();
    return;
  }
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(<UpdatePrompt />);
}

/**
 * Tells the waiting worker to take over and reloads once it controls the page. Reloading on
 * 'controllerchange' ourselves also covers a page that was not controlled before, where
 * workbox-window reports no update.
 */
function reloadIntoNewVersion(): void {
  navigator.serviceWorker?.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  void applyUpdate?.(true);
}

function UpdatePrompt() {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    reopen = () => setShown(true);
  }, []);
  if (!shown) return null;
  return (
    <div className="update-prompt" role="status">
      A new version of the app is ready.
      <button type="button" className="button button-small" onClick={reloadIntoNewVersion}>
        Reload
      </button>
      <button type="button" className="button button-small button-light" onClick={() => setShown(false)}>
        Later
      </button>
    </div>
  );
}
