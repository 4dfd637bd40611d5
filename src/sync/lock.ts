/**
 * One replayer or puller at a time across tabs and the service worker (design brief §2),
 * through the Web Locks API. Where it is missing (Node in tests), an in-process queue
 * gives the same guarantee within the process.
 */

type LockManagerLike = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
};

const chains = new Map<string, Promise<unknown>>();

function localLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  chains.set(
    name,
    run.catch(() => undefined),
  );
  return run;
}

export function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return locks ? locks.request(name, fn) : localLock(name, fn);
}

export const SYNC_LOCK = 'textbook-admin-sync';
