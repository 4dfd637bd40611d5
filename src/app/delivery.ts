/**
 * The server's verdict on a saved change, as an event: a live query on the change's outbox
 * entry (Dexie's liveQuery wakes it when a replayer in this window or the service worker
 * writes the entry) and the window's 'offline' event, instead of reading the outbox on a
 * timer. A form waits on it a few seconds so an online administrator gets the verdict.
 */
import { liveQuery } from 'dexie';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { db } from './window-context';

export type DeliveryOutcome =
  | { kind: 'confirmed' }
  | { kind: 'failed'; message: string | null }
  /** `unreachable`: an attempt could not reach the server; the next waits for its back-off. */
  | { kind: 'queued'; unreachable?: boolean };

/** The verdict the entry as stored now gives; null while it is still on its way. */
function verdictOf(entry: OutboxEntry | undefined): DeliveryOutcome | null {
  if (!entry) return { kind: 'confirmed' };
  if (entry.status === 'failed') return { kind: 'failed', message: entry.lastError };
  if (!navigator.onLine) return { kind: 'queued' };
  // An attempt could not reach the server and the next waits for its back-off: no verdict
  // comes soon, whatever navigator.onLine says (a school network without a way out, a server
  // that is down). The change waits in the outbox, and the notice says so.
  if (entry.status === 'pending' && entry.lastError && entry.nextAttemptAt > Date.now())
    return { kind: 'queued', unreachable: true };
  return null;
}

/**
 * Waits up to `timeoutMs` for the server to confirm or refuse the change saved as `entryId`;
 * past the wait, offline, or once an attempt failed to reach the server, it stays queued.
 * `keepWaiting`, asked at the end of each `timeoutMs`, extends the wait by another (a large
 * upload that is still moving): one live query for the whole wait.
 */
export function awaitDelivery(
  entryId: string | null,
  timeoutMs = 4000,
  keepWaiting: () => boolean = () => false,
): Promise<DeliveryOutcome> {
  if (entryId === null) return Promise.resolve({ kind: 'confirmed' });
  return new Promise((resolve) => {
    let done = false;
    let subscription: { unsubscribe(): void } | undefined;
    const finish = (outcome: DeliveryOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      window.removeEventListener('offline', offline);
      subscription?.unsubscribe();
      resolve(outcome);
    };
    const offline = () => finish({ kind: 'queued' });
    const expire = () => {
      if (navigator.onLine && keepWaiting()) timer = setTimeout(expire, timeoutMs);
      else finish({ kind: 'queued' });
    };
    let timer = setTimeout(expire, timeoutMs);
    window.addEventListener('offline', offline);
    subscription = liveQuery(() => db.outbox.where('id').equals(entryId).first()).subscribe({
      next: (entry) => {
        const verdict = verdictOf(entry);
        if (verdict) finish(verdict);
      },
      // The store could not be read: the change is where it was saved, in the outbox.
      error: () => finish({ kind: 'queued' }),
    });
    if (done) subscription.unsubscribe();
  });
}
