/// <reference lib="webworker" />
/**
 * The drain benchmark's peer: Workbox background sync (workbox-background-sync's Queue), the
 * built-in way a PWA replays requests made offline. bench/drain.mjs asks the page
 * (bench/bench-page.ts) to hand this worker the same requests our outbox would send one by one
 * (the legacy single requests: same paths, bodies and Idempotency-Keys), which it queues as
 * BackgroundSyncPlugin's fetchDidFail would (`pushRequest`), then replays them with the
 * Queue's own `replayRequests()`: one at a time, in order, each removed from Workbox's
 * IndexedDB queue before its fetch and put back if the fetch fails.
 *
 * `forceSyncFallback` with a no-op `onSync` keeps Workbox from replaying by itself at start
 * or on a 'sync' event: the benchmark starts the replay when it measures. A replay that
 * throws (a fetch without a reply) is what ends a real Workbox sync event; the browser fires
 * the next one after its own backoff (minutes). Here the replay is called again at once,
 * which is kinder to Workbox than the browser, and the number of such restarts is reported.
 */
import { Queue } from 'workbox-background-sync';

declare const self: ServiceWorkerGlobalScope;

/** A request as the page describes it (structured-clone friendly). */
export interface LegacyRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface WorkboxReplay {
  ms: number;
  /** Replays that ended with a fetch error (each a wait for the browser's next sync event). */
  restarts: number;
  /** Requests still queued when the cap ended the replay. */
  left: number;
  capped: boolean;
}

const queue = new Queue('drain-bench', { forceSyncFallback: true, onSync: async () => {} });

async function push(requests: readonly LegacyRequest[]): Promise<{ ms: number }> {
  const started = performance.now();
  for (const r of requests)
    await queue.pushRequest({
      request: new Request(r.url, { method: r.method, headers: r.headers, body: r.body }),
    });
  return { ms: performance.now() - started };
}

async function replay(capMs: number): Promise<WorkboxReplay> {
  const started = performance.now();
  let restarts = 0;
  let capped = false;
  for (;;) {
    try {
      await queue.replayRequests();
      break;
    } catch {
      restarts += 1;
      if (performance.now() - started > capMs) {
        capped = true;
        break;
      }
    }
  }
  return { ms: performance.now() - started, restarts, left: await queue.size(), capped };
}

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  const port = event.ports[0];
  const { type } = event.data ?? {};
  const work =
    type === 'push' ? push(event.data.requests) : type === 'replay' ? replay(event.data.capMs) : null;
  if (!work) return;
  event.waitUntil(
    work.then(
      (result) => port.postMessage({ ok: true, result }),
      (error) => port.postMessage({ ok: false, error: String(error) }),
    ),
  );
});
