/**
 * One device of bench/scale-out.mjs, in a worker thread of Node: the app's real local store
 * (Dexie on fake-indexeddb), mutate, API client, sign-in and replay, as bench/bench-page.ts
 * uses them in Chromium. Bundled for Node by scale-out.mjs (vite, SSR: packages external).
 *
 * workerData: { apiRoot, entries, tag }. Posts { queuedMs, drainMs, sent, left, failed,
 * leftByStatus, firstError, requestMs: number[] } once its outbox is drained, or once 50
 * replays in a row sent nothing while entries waited (stuck).
 */
import 'fake-indexeddb/auto';
import { parentPort, workerData } from 'node:worker_threads';
import { classEntity } from '../src/contract/entities';
import { mutate } from '../src/db/mutate';
import { openLocalDb } from '../src/db/open';
import { createApi } from '../src/sync/api/api-client';
import { signIn } from '../src/sync/api/sign-in-requests';
import { replay } from '../src/sync/replay';

const { apiRoot, entries, tag } = workerData as { apiRoot: string; entries: number; tag: string };

/** A fetch that keeps the session cookie and times each request. */
const requestMs: number[] = [];
const jar = new Map<string, string>();
const timedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input as RequestInfo, init);
  if (jar.size) request.headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
  const started = performance.now();
  const response = await fetch(request);
  const body = await response.arrayBuffer();
  requestMs.push(performance.now() - started);
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

const db = openLocalDb(`device-${tag}`);
await db.open();
const api = createApi({ root: apiRoot, fetch: timedFetch, timeoutMs: 60_000 });
const signedIn = await signIn(api, 'admin', 'admin123');
if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.message}`);
const ctx = { db, api };

const queuing = performance.now();
for (let i = 0; i < entries; i++)
  await mutate(db, { op: 'add', entity: classEntity, values: { class_name: `${tag}-${i}` } });
const queuedMs = performance.now() - queuing;

parentPort!.postMessage({ ready: true });
await new Promise((resolve) => parentPort!.once('message', resolve));

requestMs.length = 0;
const started = performance.now();
let sent = 0;
let failed = 0;
/** Replays in a row that sent nothing while entries wait: the outbox is stuck, not slow. */
const STUCK_AFTER = 50;
let idle = 0;
for (;;) {
  const report = await replay(ctx);
  sent += report.sent;
  failed += report.failed;
  if (report.paused || report.failed > 0 || report.waiting === 0) break;
  idle = report.sent === 0 ? idle + 1 : 0;
  if (idle >= STUCK_AFTER) break;
  // Throughput, not the backoff policy (as bench/drain.mjs).
  await db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
}
const drainMs = performance.now() - started;
/** What is left, by status, with the first error: what a stuck outbox was waiting on. */
const leftEntries = await db.outbox.toArray();
const byStatus: Record<string, number> = {};
for (const e of leftEntries) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
const firstError = leftEntries.find((e) => e.lastError)?.lastError ?? null;
parentPort!.postMessage({
  queuedMs,
  drainMs,
  sent,
  failed,
  left: leftEntries.length,
  leftByStatus: byStatus,
  firstError,
  requestMs,
});
