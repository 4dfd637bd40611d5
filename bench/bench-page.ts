/**
 * The outbox benchmark's page: the app's real local store (Dexie on the profile's on-disk
 * IndexedDB), mutate, API client, sign-in and replay, driven from Node by bench/drain.mjs
 * through `window.bench`. Only the window's code path runs here: no service worker, no UI.
 */
import { BATCH_PATH } from '../src/contract/batch';
import { classEntity, seriesEntity, subjectEntity } from '../src/contract/entities';
import { IDEMPOTENCY_HEADER } from '../src/contract/wire';
import { applyBulk } from '../src/db/bulk/bulk-changes';
import { isTempId } from '../src/db/ids';
import { mutate } from '../src/db/mutate';
import { openLocalDb } from '../src/db/open';
import { type ApiClient, createApi } from '../src/sync/api/api-client';
import { requestOptions } from '../src/sync/api/encode-request';
import { signIn } from '../src/sync/api/sign-in-requests';
import { entryRequest } from '../src/sync/entry-request';
import { type ReplayReport, replay } from '../src/sync/replay';
import { SyncScheduler } from '../src/sync/scheduler';
import { syncNow } from '../src/sync/sync-now';
import { API_ROOT } from '../src/sync/sync-settings';
import type { LegacyRequest, WorkboxReplay } from './workbox-sw';

/** IndexedDB transactions opened and their total lifetime: where the drain's time goes. */
const idb = { transactions: 0, readwrite: 0, lifetimeMs: 0 };
/** The same by scope ('readwrite outbox+idmap'): count and summed lifetime in ms. */
let idbByScope: Record<string, { count: number; ms: number }> = {};
/** Each request's and read-write transaction's span, from the drain's start (BENCH_DRAIN_TIMELINE). */
let timeline: { what: string; from: number; to: number }[] = [];
let drainStarted = 0;
const span = (what: string, from: number) =>
  timeline.push({ what, from: from - drainStarted, to: performance.now() - drainStarted });
const openTransaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (
  this: IDBDatabase,
  ...args: Parameters<IDBDatabase['transaction']>
) {
  const tx = openTransaction.apply(this, args);
  const started = performance.now();
  idb.transactions += 1;
  if (tx.mode === 'readwrite') idb.readwrite += 1;
  const stores = Array.from(tx.objectStoreNames);
  const scope = `${tx.mode} ${stores.length > 5 ? `all ${stores.length} stores` : stores.join('+')}`;
  const end = () => {
    const ms = performance.now() - started;
    idb.lifetimeMs += ms;
    idbByScope[scope] ??= { count: 0, ms: 0 };
    idbByScope[scope].count += 1;
    idbByScope[scope].ms += ms;
    if (tx.mode === 'readwrite') span(scope, started);
  };
  tx.addEventListener('complete', end);
  tx.addEventListener('abort', end);
  return tx;
} as IDBDatabase['transaction'];

/** HTTP requests of replay: how many, how long in total, and how many at once at most. */
const http = {
  requests: 0,
  totalMs: 0,
  inFlight: 0,
  maxInFlight: 0,
  unreachable: 0,
  /** Batch requests answered as batches, the items they carried, and items the server replayed. */
  batches: 0,
  batchItems: 0,
  itemsReplayed: 0,
};
/** Requests per method and path, e.g. to see list refetches. */
let httpByPath: Record<string, number> = {};
let busySince = 0;
let httpBusyMs = 0;

function measured(api: ApiClient): ApiClient {
  return {
    root: api.root,
    getList: (path) => api.getList(path),
    async request(path, options) {
      http.requests += 1;
      const what = `${options.method} ${path}`;
      httpByPath[what] = (httpByPath[what] ?? 0) + 1;
      if (http.inFlight === 0) busySince = performance.now();
      http.inFlight += 1;
      http.maxInFlight = Math.max(http.maxInFlight, http.inFlight);
      const started = performance.now();
      try {
        const outcome = await api.request(path, options);
        if (outcome.kind === 'unreachable') http.unreachable += 1;
        const replies = outcome.kind === 'reply' && path === BATCH_PATH ? outcome.body.replies : null;
        if (Array.isArray(replies)) {
          http.batches += 1;
          http.batchItems += replies.length;
          http.itemsReplayed += replies.filter((r: { replayed?: boolean }) => r.replayed).length;
        } else if (outcome.kind === 'reply' && outcome.replayed) http.itemsReplayed += 1;
        span(`${what} ${Array.isArray(replies) ? replies.length : ''}`, started);
        return outcome;
      } finally {
        http.totalMs += performance.now() - started;
        http.inFlight -= 1;
        if (http.inFlight === 0) httpBusyMs += performance.now() - busySince;
      }
    },
  };
}

const db = openLocalDb('outbox-bench');
const ctx = { db, api: measured(createApi({ root: API_ROOT })) };

export interface SetupResult {
  subjectId: string;
  baseClassIds: string[];
  baseNames: string[];
  drainMs: number;
}

export interface QueuePlan {
  /** Outbox entries to queue (each becomes one request). */
  entries: number;
  prefix: string;
  /** Classes already on the server (from setup): some are edited, others deleted. */
  baseClassIds: string[];
  baseNames: string[];
  subjectId: string;
}

export interface QueueResult {
  entries: number;
  mutateCalls: number;
  ms: number;
  kinds: Record<string, number>;
  /** Class and series names the server must end with (exactly once each)... */
  expectedClasses: string[];
  expectedSeries: string[];
  /** ...and class names it must no longer have (deleted or renamed). */
  goneClasses: string[];
}

export interface DrainResult {
  ms: number;
  rounds: number;
  sent: number;
  failed: number;
  left: number;
  failures: string[];
  http: typeof http;
  idb: typeof idb;
  idbByScope: typeof idbByScope;
  httpByPath: typeof httpByPath;
  /** Time with at least one request in flight. */
  httpBusyMs: number;
  timeline: typeof timeline;
}

/** Replays until the outbox is empty, skipping backoff between rounds (see drain.mjs). */
async function drain(limitMs = 240_000): Promise<DrainResult> {
  for (const k of Object.keys(http) as (keyof typeof http)[]) http[k] = 0;
  for (const k of Object.keys(idb) as (keyof typeof idb)[]) idb[k] = 0;
  idbByScope = {};
  httpByPath = {};
  httpBusyMs = 0;
  timeline = [];
  const started = performance.now();
  drainStarted = started;
  let rounds = 0;
  let sent = 0;
  let failed = 0;
  let report: ReplayReport;
  for (;;) {
    rounds += 1;
    report = await replay(ctx);
    sent += report.sent;
    failed += report.failed;
    if (report.paused || report.failed > 0 || report.waiting === 0) break;
    if (performance.now() - started > limitMs) break;
    // Entries whose request failed wait for their backoff (1 s, 2 s, ... with jitter). The
    // benchmark measures throughput, not the backoff policy: make them due at once.
    await db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
  }
  const ms = performance.now() - started;
  const failedEntries = await db.outbox.where('status').equals('failed').toArray();
  return {
    ms,
    rounds,
    sent,
    failed,
    left: await db.outbox.count(),
    failures: failedEntries.slice(0, 5).map((e) => `${e.entity} ${e.op}: ${e.lastError}`),
    http: { ...http },
    idb: { ...idb },
    idbByScope,
    httpByPath,
    httpBusyMs,
    timeline,
  };
}

async function setup(prefix: string, baseClasses: number): Promise<SetupResult> {
  await db.delete();
  await db.open();
  const subject = await mutate(db, {
    op: 'add',
    entity: subjectEntity,
    values: { subject_name: `${prefix} subject`, subject_content: '<p>Bench</p>' },
  });
  const base: string[] = [];
  const baseNames: string[] = [];
  for (let i = 0; i < baseClasses; i++) {
    baseNames.push(`${prefix} base ${i}`);
    const r = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: baseNames[i] } });
    base.push(r.key);
  }
  const drained = await drain();
  if (drained.left > 0) throw new Error(`Setup left ${drained.left} entries: ${drained.failures.join('; ')}`);
  const serverId = async (tempId: string) => {
    const mapped = await db.idmap.get(tempId);
    if (!mapped) throw new Error(`No server id for ${tempId}`);
    return mapped.serverId;
  };
  return {
    subjectId: await serverId(subject.key),
    baseClassIds: await Promise.all(base.map(serverId)),
    baseNames,
    drainMs: drained.ms,
  };
}

/**
 * Queues `entries` outbox entries, as an administrator working offline would, one change at a
 * time: 80% class adds, 5% edits and 5% deletes of classes already on the server, 10% series
 * adds in a class added earlier in the same batch (each must wait for its class's add and
 * then carry the server's id: dependent ordering), plus edits of unsent class adds, which
 * mutate folds into the add (they add mutate calls, not entries).
 */
async function queue(plan: QueuePlan): Promise<QueueResult> {
  const { prefix, entries } = plan;
  const edits = Math.round(entries * 0.05);
  const deletes = Math.round(entries * 0.05);
  const series = Math.round(entries * 0.1);
  const adds = entries - edits - deletes - series;
  if (plan.baseClassIds.length < edits + deletes) throw new Error('Not enough base classes');
  if (series > adds) throw new Error('More series than classes to put them in');

  const kinds = { classAdd: 0, classEdit: 0, classDelete: 0, seriesAdd: 0, foldedEdit: 0 };
  const expectedClasses: string[] = [];
  const expectedSeries: string[] = [];
  const goneClasses: string[] = [];
  const added: { key: string; name: string }[] = [];
  // Spread the edits, deletes and series evenly among the adds, as real work would be.
  const plan1: ('add' | 'edit' | 'delete' | 'series')[] = [];
  for (let i = 0; i < entries; i++) {
    const slot = i % 20;
    if (slot === 5 && kinds.classEdit < edits) {
      plan1.push('edit');
      kinds.classEdit++;
    } else if (slot === 15 && kinds.classDelete < deletes) {
      plan1.push('delete');
      kinds.classDelete++;
    } else if ((slot === 9 || slot === 19) && kinds.seriesAdd < series) {
      plan1.push('series');
      kinds.seriesAdd++;
    } else plan1.push('add');
  }
  for (const k of Object.keys(kinds) as (keyof typeof kinds)[]) kinds[k] = 0;

  let mutateCalls = 0;
  let nextBase = 0;
  const started = performance.now();
  for (const [i, what] of plan1.entries()) {
    mutateCalls++;
    if (what === 'add') {
      const name = `${prefix} class ${i}`;
      const r = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });
      added.push({ key: r.key, name });
      kinds.classAdd++;
      // Every 10th new class is renamed before it is sent: folded into its add (rule 6).
      if (added.length % 10 === 0) {
        mutateCalls++;
        const renamed = `${name} renamed`;
        await mutate(db, { op: 'update', entity: classEntity, key: r.key, values: { class_name: renamed } });
        added[added.length - 1].name = renamed;
        kinds.foldedEdit++;
      }
    } else if (what === 'edit') {
      const b = nextBase++;
      const name = `${plan.baseNames[b]} edited`;
      await mutate(db, {
        op: 'update',
        entity: classEntity,
        key: plan.baseClassIds[b],
        values: { class_name: name },
      });
      expectedClasses.push(name);
      goneClasses.push(plan.baseNames[b]);
      kinds.classEdit++;
    } else if (what === 'delete') {
      const b = nextBase++;
      await mutate(db, { op: 'delete', entity: classEntity, key: plan.baseClassIds[b] });
      goneClasses.push(plan.baseNames[b]);
      kinds.classDelete++;
    } else {
      // The class added 1 to 4 changes earlier: usually still unsent, often in flight.
      const parent = added[Math.max(0, added.length - 1 - (i % 4))];
      const name = `${prefix} series ${i}`;
      await mutate(db, {
        op: 'add',
        entity: seriesEntity,
        values: { class_id: parent.key, subject_id: plan.subjectId, series_name: name },
      });
      expectedSeries.push(name);
      kinds.seriesAdd++;
    }
  }
  const ms = performance.now() - started;
  for (const a of added) expectedClasses.push(a.name);
  // Base classes neither edited nor deleted stay as they are.
  for (let b = nextBase; b < plan.baseNames.length; b++) expectedClasses.push(plan.baseNames[b]);
  return {
    entries: await db.outbox.count(),
    mutateCalls,
    ms,
    kinds,
    expectedClasses,
    expectedSeries,
    goneClasses,
  };
}

/**
 * The floor under every design: sequential one-put read-write transactions on this profile's
 * IndexedDB, per durability hint ('default' is what Dexie uses unless told otherwise).
 */
async function idbFloor(count = 200): Promise<Record<string, number>> {
  const open = indexedDB.open('outbox-bench-floor', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('t');
  const raw = await new Promise<IDBDatabase>((ok, fail) => {
    open.onsuccess = () => ok(open.result);
    open.onerror = () => fail(open.error);
  });
  const out: Record<string, number> = {};
  for (const durability of ['default', 'relaxed', 'strict'] as const) {
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const tx = raw.transaction('t', 'readwrite', { durability });
      tx.objectStore('t').put({ i, payload: 'x'.repeat(200) }, i);
      await new Promise((ok, fail) => {
        tx.oncomplete = ok;
        tx.onerror = () => fail(tx.error);
      });
    }
    out[durability] = (performance.now() - started) / count;
  }
  raw.close();
  return out;
}

/**
 * The queued entries as the legacy single requests the app would send for them, in queue
 * order, for the Workbox peer (bench/workbox-sw.ts). Workbox replays what was recorded and
 * cannot learn the id the server gives a class added offline, so a series in such a class
 * names the id the server will give it: Workbox sends one request at a time in this order and
 * every class add succeeds, so the k-th class add gets the k-th id after the last class of
 * the setup (a wrong guess shows up as a series the server refused, i.e. a loss).
 */
async function legacyRequests(lastClassId: number): Promise<LegacyRequest[]> {
  const entries = await db.outbox.orderBy('seq').toArray();
  const predicted = new Map<string, string>();
  let next = lastClassId;
  for (const e of entries)
    if (e.entity === classEntity.name && e.op === 'add') predicted.set(e.key, String(++next));
  const known = new Map((await db.idmap.toArray()).map((m) => [m.tempId, m.serverId]));
  const resolve = (id: string) => (isTempId(id) ? (predicted.get(id) ?? known.get(id) ?? null) : id);
  return entries.map((entry) => {
    const request = entryRequest(entry, resolve, ctx.api.root);
    if (!request) throw new Error(`No request for entry ${entry.seq}`);
    const options = requestOptions(request, entry.id);
    const url = new URL(`${ctx.api.root}/${request.path}`);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { [IDEMPOTENCY_HEADER]: entry.id };
    if (options.json === undefined) return { url: url.href, method: options.method, headers };
    headers['Content-Type'] = 'application/json';
    return { url: url.href, method: options.method, headers, body: JSON.stringify(options.json) };
  });
}

/** Installs the Workbox worker (online: its script is fetched) and waits until it is active. */
async function workboxStart(): Promise<void> {
  await navigator.serviceWorker.register('/workbox-sw.js', { type: 'module' });
  await navigator.serviceWorker.ready;
}

/** Asks the Workbox worker to do something and waits for its answer. */
async function askWorkbox<T>(message: Record<string, unknown>): Promise<T> {
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) throw new Error('The Workbox worker did not activate');
  const channel = new MessageChannel();
  const answer = new Promise<T>((ok, fail) => {
    channel.port1.onmessage = (e) => (e.data.ok ? ok(e.data.result) : fail(new Error(e.data.error)));
  });
  worker.postMessage(message, [channel.port2]);
  return answer;
}

/**
 * The Workbox peer's queueing: the outbox's entries as legacy requests into Workbox's queue,
 * then the outbox emptied (this run measures Workbox; nothing of ours sends them).
 */
async function workboxQueue(lastClassId: number): Promise<{ requests: number; ms: number }> {
  const requests = await legacyRequests(lastClassId);
  const { ms } = await askWorkbox<{ ms: number }>({ type: 'push', requests });
  await db.outbox.clear();
  return { requests: requests.length, ms };
}

/** Workbox's replayRequests() until its queue is empty (restarted at once after a failure, up to capMs). */
async function workboxReplay(capMs: number): Promise<WorkboxReplay & { pageMs: number }> {
  const started = performance.now();
  const result = await askWorkbox<WorkboxReplay>({ type: 'replay', capMs });
  return { ...result, pageMs: performance.now() - started };
}

/**
 * The recovery benchmark (bench/recovery.mjs): the window's own scheduler (src/sync/scheduler.ts,
 * as src/app/sync-runner.ts builds it) on this page's store and API client.
 */
let scheduler: SyncScheduler | null = null;

function startScheduler(): void {
  scheduler = new SyncScheduler({
    context: async () => ctx,
    sync: syncNow,
    canSync: () => navigator.onLine,
    hidden: () => document.visibilityState === 'hidden',
    onError: (error) => console.error('Sync failed', error),
  });
  scheduler.listen({ win: window, doc: document });
}

/** One change made (a class add), then a sync asked for, as saving a form does. */
async function change(name: string): Promise<void> {
  await mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });
  void scheduler?.request();
}

/** The outbox as the recovery bench reads it. */
async function outboxState() {
  return (await db.outbox.toArray()).map((e) => ({
    attempts: e.attempts,
    nextAttemptAt: e.nextAttemptAt,
    unreachable: e.unreachable === true,
    status: e.status,
  }));
}

/** Main-thread tasks of 50 ms or more (the Long Tasks API's threshold) while `work` runs: the longest. */
async function longestTask<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; longestTaskMs: number }> {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  // Entries are delivered after the task that ends them: let them arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const e of observer.takeRecords()) longest = Math.max(longest, e.duration);
  observer.disconnect();
  return { value, ms, longestTaskMs: longest };
}

/** For bench/bulk.mjs: 1,000 single edits, one `mutate` (one transaction) each, as a form saves them. */
async function singleEdits(ids: string[], prefix: string) {
  const { ms, longestTaskMs } = await longestTask(async () => {
    for (const [i, id] of ids.entries())
      await mutate(db, {
        op: 'update',
        entity: classEntity,
        key: id,
        values: { class_name: `${prefix} edited ${i}` },
      });
  });
  return { ms, longestTaskMs, entries: await db.outbox.count() };
}

/** For bench/bulk.mjs: the same rows in one bulk action (src/db/bulk/bulk-changes.ts, slices of 100 per transaction). */
async function bulkDelete(ids: string[]) {
  const { value, ms, longestTaskMs } = await longestTask(() =>
    applyBulk(db, classEntity, ids, { op: 'delete' }),
  );
  return {
    ms,
    longestTaskMs,
    changed: value.changed,
    refused: value.refused.length,
    entries: await db.outbox.count(),
  };
}

async function signInBench(username: string, password: string): Promise<boolean> {
  return (await signIn(ctx.api, username, password)).ok;
}

const bench = {
  signIn: signInBench,
  setup,
  queue,
  drain,
  idbFloor,
  workboxStart,
  workboxQueue,
  workboxReplay,
  startScheduler,
  change,
  outboxState,
  singleEdits,
  bulkDelete,
};
export type BenchApi = typeof bench;
(window as unknown as { bench: BenchApi }).bench = bench;
document.title = 'bench ready';
