/**
 * The import and export benchmark's page (bench/import-export.mjs): seeds 300 schools and
 * 100,000 students through the app's pull path, then drives the app's own CSV worker
 * (src/csv-worker.ts) as the import screen and the Export button do, timing each step and
 * recording the main thread's long tasks (PerformanceObserver 'longtask', over 50 ms) meanwhile.
 */
import { schoolEntity, studentEntity } from '../src/contract/entities';
import { geoPaths } from '../src/contract/geography';
import type { FromCsvWorker, ToCsvWorker } from '../src/db/csv/csv-worker-protocol';
import { writeSignedInUser } from '../src/db/meta';
import { openLocalDb } from '../src/db/open';
import { writeReference } from '../src/db/reference-lists';
import { applyPulled } from '../src/sync/pull/pull-apply';
import { generate } from './lists-data.mjs';

const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

const worker = new Worker(new URL('../src/csv-worker.ts', import.meta.url), { type: 'module', name: 'csv' });
let seq = 1;
const waiting = new Map<number, (m: FromCsvWorker) => void>();
let progressEvents = 0;
/** When each progress message came (ms): a slice's time, and whether later slices cost more. */
let progressTimes: number[] = [];
worker.onmessage = (event: MessageEvent<FromCsvWorker>) => {
  if (event.data.type === 'progress') {
    progressEvents++;
    progressTimes.push(performance.now());
    return;
  }
  waiting.get(event.data.seq)?.(event.data);
};
function ask(message: Record<string, unknown>): Promise<unknown> {
  const n = seq++;
  return new Promise((resolve, reject) => {
    waiting.set(n, (m) =>
      m.type === 'reply' ? resolve(m.result) : reject(new Error(m.type === 'failed' ? m.message : '?')),
    );
    worker.postMessage({ ...message, seq: n } as ToCsvWorker);
  });
}

/**
 * The list worker, as the Export button asks it for a list's keys (app/csv.ts exportFile: in
 * slices of 20,000, in the list's default order).
 */
const lists = new Worker(new URL('../src/list-worker.ts', import.meta.url), {
  type: 'module',
  name: 'lists',
});
const listReplies = new Map<number, (result: unknown) => void>();
lists.onmessage = (event: MessageEvent<{ type: string; seq: number; result?: unknown }>) =>
  listReplies.get(event.data.seq)?.(event.data.result);
function listKeys(offset: number, limit: number): Promise<{ keys: string[]; total: number }> {
  const n = seq++;
  return new Promise((resolve) => {
    listReplies.set(n, resolve as (result: unknown) => void);
    lists.postMessage({ type: 'keys', entity: 'student', query: {}, offset, limit, seq: n });
  });
}
async function allListKeys(): Promise<string[]> {
  const keys: string[] = [];
  for (let offset = 0; ; offset += 20_000) {
    const slice = await listKeys(offset, 20_000);
    keys.push(...slice.keys);
    if (slice.keys.length < 20_000 || keys.length >= slice.total) return keys;
  }
}

/** Times one step and the longest main-thread task while it ran. */
async function step<T>(
  work: () => Promise<T>,
): Promise<{ ms: number; longestTaskMs: number; at: [number, number]; result: T }> {
  const t0 = performance.now();
  const result = await work();
  const t1 = performance.now();
  // Long tasks are reported a little after they end.
  await new Promise((r) => setTimeout(r, 100));
  const during = longTasks.filter((t) => t.start >= t0 && t.start <= t1).map((t) => t.duration);
  return { ms: t1 - t0, longestTaskMs: Math.max(0, ...during), at: [t0, t1], result };
}

type Step = Awaited<ReturnType<typeof step>>;

/** An export step's figures: its time, longest task and the file's size. */
const exported = (s: Step, rows?: number) => ({
  ms: s.ms,
  longestTaskMs: s.longestTaskMs,
  at: s.at,
  bytes: (s.result as Blob).size,
  ...(rows === undefined ? {} : { rows }),
});

/** The floor step's figures: its time, longest task and the rows it read. */
const floorFigures = (s: Step) => ({ ms: s.ms, longestTaskMs: s.longestTaskMs, at: s.at, rows: s.result });

/**
 * The export's floor, in the same run: every student row read by IndexedDB itself in one
 * `getAll` (no Dexie, no formatting), here in the page.
 */
function readAllRows(db: ReturnType<typeof openLocalDb>): Promise<number> {
  const store = db.rows(studentEntity).name;
  return new Promise((resolve, reject) => {
    const request = db.backendDB().transaction(store, 'readonly').objectStore(store).getAll();
    request.onsuccess = () => resolve((request.result as unknown[]).length);
    request.onerror = () => reject(request.error);
  });
}

function csvOf(schools: Record<string, unknown>[], count: number, offset: number): string {
  const lines = ['Student Name,Email,Password,Contact Number,Country,State,City,School,Class'];
  for (let i = 0; i < count; i++) {
    const school = schools[i % schools.length];
    lines.push(
      `New Pupil ${offset + i},new${offset + i}@example.org,secret-12,+91 96${String(10000000 + i).slice(-8)},India,Maharashtra,Pune,${school.school_name},`,
    );
  }
  return lines.join('\n');
}

async function run(options: { students: number; only?: string; queueOnly?: boolean }) {
  const db = openLocalDb();
  const { schools, students } = generate({ schools: 300, students: options.students });
  await applyPulled(db, schoolEntity, { rows: schools, deleted: [], cursor: null });
  for (let i = 0; i < students.length; i += 2000)
    await applyPulled(db, studentEntity, { rows: students.slice(i, i + 2000), deleted: [], cursor: null });
  await writeReference(db, geoPaths.countries(), [{ id: 1, name: 'India', iso2: 'IN' }]);
  await writeReference(db, geoPaths.allStates(), [
    { id: 1, name: 'Maharashtra', iso2: 'MH', country_code: 'IN' },
  ]);
  await writeSignedInUser(db, 'admin');
  const keys = (await db.rows(studentEntity).toCollection().primaryKeys()).map(String);
  const text10k = csvOf(schools, 10_000, 0);
  const text100k = options.queueOnly ? '' : csvOf(schools, 100_000, 0);

  // The floor last: its 100,000 rows in the page would be collected (a long task) during a step after it.
  const floorStep = () => step(() => readAllRows(db));
  if (options.only === 'export') {
    const export100k = await step(() => ask({ type: 'export', entity: 'student', keys }));
    // As the Export button does it, the list being open (its entity loaded in the list worker).
    await listKeys(0, 10);
    const listed = await step(async () => {
      const listKeys = await allListKeys();
      return ask({ type: 'export', entity: 'student', keys: listKeys });
    });
    const floor = await floorStep();
    db.close();
    return {
      exportFromList: exported(listed),
      export100k: exported(export100k, keys.length),
      floor: floorFigures(floor),
    };
  }
  const check10k = await step(() => ask({ type: 'check', entity: 'student', text: text10k }));
  const skipped = {
    ms: 0,
    longestTaskMs: 0,
    at: [0, 0] as [number, number],
    result: { ready: 0 } as unknown,
  };
  const check100k = options.queueOnly
    ? skipped
    : await step(() => ask({ type: 'check', entity: 'student', text: text100k }));
  await ask({ type: 'check', entity: 'student', text: text10k });
  progressEvents = 0;
  progressTimes = [];
  // The CPU the browser's processes spend on the queueing (bench/import-export.mjs reads /proc):
  // steadier than the wall time on a shared machine.
  await window.benchCpu?.('queue start');
  const queueStart = performance.now();
  const queue10k = await step(async () => {
    await ask({ type: 'start', id: 'bench', entity: 'student', hash: 'bench', fileName: 'bench.csv' });
    return ask({ type: 'queue', id: 'bench' });
  });
  await window.benchCpu?.('queue end');
  const progress = progressEvents;
  const sliceMs = progressTimes.map((t, i) => Math.round(t - (i === 0 ? queueStart : progressTimes[i - 1])));
  const export100k = options.queueOnly
    ? { ...skipped, result: new Blob() as unknown }
    : await step(() => ask({ type: 'export', entity: 'student', keys }));
  const floor = options.queueOnly ? { ...skipped, result: 0 as unknown } : await floorStep();
  const outbox = await db.outbox.count();
  db.close();
  return {
    check10k: {
      ms: check10k.ms,
      longestTaskMs: check10k.longestTaskMs,
      at: check10k.at,
      ready: (check10k.result as { ready: number }).ready,
    },
    check100k: {
      ms: check100k.ms,
      longestTaskMs: check100k.longestTaskMs,
      at: check100k.at,
      ready: (check100k.result as { ready: number }).ready,
    },
    queue10k: {
      ms: queue10k.ms,
      longestTaskMs: queue10k.longestTaskMs,
      at: queue10k.at,
      outbox,
      progress,
      sliceMs,
    },
    export100k: exported(export100k, keys.length),
    floor: floorFigures(floor),
  };
}

declare global {
  interface Window {
    csvBench: { run: typeof run };
    /** Set by bench/import-export.mjs: a snapshot of the browser's CPU time, by name. */
    benchCpu?: (name: string) => Promise<void>;
  }
}
window.csvBench = { run };
document.title = 'csv bench ready';
