import { useSyncExternalStore } from 'react';
import { isLive, LIVE_CHANGE_EVENT } from '../../app/sync-status/live-flag';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own idea of the connection; replay still treats every request as fallible. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine);
}

function subscribeLive(onChange: () => void): () => void {
  window.addEventListener(LIVE_CHANGE_EVENT, onChange);
  return () => window.removeEventListener(LIVE_CHANGE_EVENT, onChange);
}

/** Whether the server's live stream works (app/sync-status/live-flag.ts). */
export function useLive(): boolean {
  return useSyncExternalStore(subscribeLive, isLive);
}
