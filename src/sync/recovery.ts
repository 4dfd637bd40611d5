/**
 * Getting going again after the server could not be reached. A change whose attempt got no
 * answer waits with backoff (1 s, 2 s, 4 s ... a minute: after several outages in a row, tens
 * of seconds), and that wait must not outlast the outage: as soon as the server answers
 * anything (a reply in replay, a pull, the probe below), such waits end at once. A wait the
 * server asked for (Retry-After) or one after the server's own error is left as it is.
 *
 * The probe is a GET of `/readyz` on the API's origin: our server's readiness check, which
 * answers 503 while it cannot serve; a server without one (the PHP API, an older build of
 * ours) answers 404 or its app page, which says as much: it is there. No reply, a gateway's
 * 502/503/504 or a timeout say it is not.
 */
import type { LocalDb } from '../db/database';
import { patchSyncState, readSyncState } from '../db/meta';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import type { ApiClient } from './api/api-client';
import type { SyncContext } from './sync-context';

/**
 * The server answered while a change was being sent (a large file's upload, which may take
 * minutes before the change's own reply): the error of the last pull that could not reach
 * it is out of date. The next pull says again what is true.
 */
export async function serverAnswers(db: LocalDb): Promise<void> {
  if ((await readSyncState(db)).lastError) await patchSyncState(db, { lastError: null });
}

/** Whether the entry waits for the server to be reachable again (and not yet due). */
export const waitsForServer = (entry: OutboxEntry, now = Date.now()) =>
  entry.status === 'pending' && entry.unreachable === true && entry.nextAttemptAt > now;

/**
 * Makes every change waiting for the server to be reachable due at once (the server answered,
 * or the network came back). Returns how many changes whose last attempt got no answer are
 * due now (those just made due, and those whose backoff ran out meanwhile): what a sync
 * should send at once. `seqs`: only those entries (a replayer that knows which wait), else all.
 */
export async function networkWaitsDue(db: LocalDb, seqs?: readonly number[]): Promise<number> {
  const now = Date.now();
  let due = 0;
  await db.transaction('rw', db.outbox, async () => {
    const entries = seqs
      ? (await db.outbox.bulkGet([...seqs])).filter((e) => e !== undefined)
      : await db.outbox.where('status').equals('pending').toArray();
    const waiting = entries.filter((e) => waitsForServer(e, now));
    if (waiting.length > 0) await db.outbox.bulkPut(waiting.map((e) => ({ ...e, nextAttemptAt: 0 })));
    due = entries.filter((e) => e.status === 'pending' && e.unreachable === true).length;
  });
  return due;
}

/** How long a probe may take: a server that answers at all answers a GET in far less. */
const PROBE_TIMEOUT_MS = 2000;

/** Whether the server answers: see the module comment. Never throws. */
export async function probeServer(api: ApiClient, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const fetcher = api.fetch ?? globalThis.fetch;
  try {
    const reply = await fetcher(new URL('/readyz', api.root), {
      method: 'GET',
      // On another origin (the PHP API's), an answer without CORS headers is still an answer.
      mode: 'no-cors',
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (reply.type === 'opaque') return true;
    await reply.body?.cancel();
    return reply.status < 500 && reply.status !== 408 && reply.status !== 429;
  } catch {
    return false;
  }
}

export interface AwaitServerOptions {
  /** Time between probes (read before each, so a hidden page can probe less often). */
  everyMs: () => number;
  /** Stop when aborted (the changes no longer wait, the runner stops). */
  signal?: AbortSignal;
  /** Give up after this long (a service worker's sync event cannot last forever). */
  limitMs?: number;
  /** Whether to probe now (false while the device has no network at all). */
  canProbe?: () => boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });

/**
 * Probes the server until it answers, then makes the changes waiting for it due; resolves
 * true then, false when stopped or out of time.
 */
export async function awaitServer(ctx: SyncContext, options: AwaitServerOptions): Promise<boolean> {
  const { signal, limitMs } = options;
  const started = Date.now();
  while (!signal?.aborted && (limitMs === undefined || Date.now() - started < limitMs)) {
    await sleep(options.everyMs(), signal);
    if (signal?.aborted) break;
    if (options.canProbe && !options.canProbe()) continue;
    if (await probeServer(ctx.api)) {
      await networkWaitsDue(ctx.db);
      return true;
    }
  }
  return false;
}
