/** Offers the new version when one waits (vite-plugin-pwa 'prompt' mode). */
import { useEffect, useState } from 'react';

let applyUpdate: ((reload?: boolean) => Promise<void>) | null = null;
let announce: (() => void) | null = null;
let waiting = false;

export function onNewVersion(update: (reload?: boolean) => Promise<void>): void {
  applyUpdate = update;
  waiting = true;
  announce?.();
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

export function UpdatePrompt() {
  const [shown, setShown] = useState(waiting);
  useEffect(() => {
    announce = () => setShown(true);
    return () => {
      announce = null;
    };
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
