/**
 * One replayer or puller at a time across tabs and the service worker (design brief §2),
 * through the Web Locks API. Where it is missing (Node in tests), an in-process queue
 * gives the same guarantee within the process.
 */

type LockManagerLike = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T | null>;
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

/** The Web Locks API where the runtime has it (browsers, service workers); not in Node 20. */
const webLocks = () => (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;

export function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = webLocks();
  return locks ? locks.request(name, fn) : localLock(name, fn);
}

/**
 * Runs fn only if nobody holds the lock now; null otherwise. Without Web Locks (Node) the
 * in-process queue is used, which waits instead: there is no other process to wait for.
 */
export function tryWithLock<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
  const locks = webLocks();
  if (!locks) return localLock(name, fn);
  return locks.request(name, { ifAvailable: true }, (lock) => (lock ? fn() : Promise.resolve(null)));
}

export const SYNC_LOCK = 'textbook-admin-sync';
