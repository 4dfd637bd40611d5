/**
 * First sync at scale: `node bench/first-sync.mjs` (part of `npm run bench`;
 * build first: `npm run build:server` and `npx vite build --config vite.bench.config.ts`).
 *
 * A reference server seeded with BENCH_STUDENTS students (100,000) by the scale seed, on
 * BENCH_SYNC_ENGINE (PostgreSQL, in a throwaway cluster; or PGlite), and Chromium with an
 * on-disk profile on bench/first-sync.html, which runs the app's real pull into a fresh
 * database in a dedicated worker, as the app does (bench/first-sync-page.ts,
 * first-sync-worker.ts). Each run prints, beside each other:
 *   - the first sync's total time (every list, students in delta pages), untraced, and,
 *     measured in the same run, the raw IndexedDB write floor: the same rows in the same pages, fetched first,
 *     then written by plain bulkPut into a fresh database with the same tables and indexes;
 *     and the same pages written by plain bulkPut into the app's own store, whose list index
 *     the middleware keeps beside the rows (what the index adds to the writing);
 *   - the pull's User Timing summed over the sync ('pull rows': the pages' rows written, …);
 *   - a second sync, traced (a trace of every task, the browser's IndexedDB work included,
 *     slows it: its time is printed beside, not used for the ratio), and its longest main-thread task, by its time and by the CPU time it used
 *     (a trace's RunTask events on the page's main thread: on a busy machine a task of a few ms
 *     of CPU can take 100 ms while the thread waits for a core), and how many passed 100 ms;
 *   - the JS heap in use, the page's and its sync worker's, at its peak during the sync
 *     (sampled every 0.5 s) and after it, after a garbage collection (CDP);
 * then once: a sync interrupted by a reload after BENCH_SYNC_RELOAD_AFTER (8) pages of
 * students, what it left (rows, cursor, progress), and the resumed sync: its time and that
 * every student is there exactly once (the count equals the server's, keys are unique).
 * min / median / max over BENCH_SYNC_RUNS (3). Then be236b9 and this build alternately at
 * BENCH_SYNC_THROTTLE× CPU (4; 1: unthrottled, 0 skips), BENCH_SYNC_THROTTLED_RUNS (3) each, with the longest
 * main-thread task and each task over 100 ms with what it was (bench/first-sync-throttled.mjs;
 * BENCH_SYNC_THROTTLED_ONLY=1 runs only those). CDP throttles a page's main thread only, not its
 * workers: a build that syncs in a worker syncs there at full speed, so the builds' times at 4×
 * are not comparable; their main threads' tasks are. Exits 1 when a resumed sync does not end with
 * exactly the server's students; never on timings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { needBuilt } from './built.mjs';
import { throttledFirstSyncs } from './first-sync-throttled.mjs';
import { tracedTasks } from './long-tasks.mjs';
import { startScaleServer, summary } from './scale-server.mjs';
import { ADMIN, serverSignIn } from './server.mjs';
import { workerHeap } from './worker-heap.mjs';

// The page this bench opens, served from dist-bench/ (npm run bench removes it when it ends).
needBuilt('dist-bench/first-sync.html');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_SYNC_RUNS ?? 3);
const ENGINE = process.env.BENCH_SYNC_ENGINE ?? 'PostgreSQL';
const RELOAD_AFTER = Number(process.env.BENCH_SYNC_RELOAD_AFTER ?? 8);

const MiB = 1024 * 1024;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Then the builds side by side at a CPU throttle (bench/first-sync-throttled.mjs); 0 skips it. */
const THROTTLE = Number(process.env.BENCH_SYNC_THROTTLE ?? 4);
const THROTTLED_RUNS = Number(process.env.BENCH_SYNC_THROTTLED_RUNS ?? 3);
const throttledRuns = () =>
  THROTTLE >= 1 && THROTTLED_RUNS > 0
    ? throttledFirstSyncs({ engine: ENGINE, students: STUDENTS, runs: THROTTLED_RUNS, rate: THROTTLE })
    : true;
if (process.env.BENCH_SYNC_THROTTLED_ONLY === '1') process.exit((await throttledRuns()) ? 0 : 1);

const { server, seeded, close } = await startScaleServer(ENGINE, STUDENTS);
const profile = await mkdtemp(join(tmpdir(), 'bench-profile-'));
let failed = false;
try {
  console.log(`${ENGINE}: ${seeded}`);
  const cookie = await serverSignIn(server.apiRoot);
  const onServer = (
    await (
      await fetch(`${server.apiRoot}/Users/Students/fetchstudents.php?page=1&limit=1`, {
        headers: { Cookie: cookie },
      })
    ).json()
  ).total;

  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
  const ready = () => page.waitForFunction(() => document.title === 'bench ready');
  await page.goto(`http://127.0.0.1:${server.port}/first-sync.html`);
  await ready();
  const cdp = await context.newCDPSession(page);
  /** The page's main-thread tasks while `run` runs (bench/long-tasks.mjs). */
  const traced = async (run) => {
    const { result, ...tasks } = await tracedTasks(cdp, run);
    return { ...result, ...tasks };
  };
  // The page's heap and its sync worker's (bench/first-sync-worker.ts), where the pull runs.
  const worker = await workerHeap(cdp, 'first-sync-worker');
  const used = async () => (await cdp.send('Runtime.getHeapUsage')).usedSize + (await worker.used());
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await worker.used(true);
    return used();
  };
  if (!(await page.evaluate((a) => window.bench.signIn(a.username, a.password), ADMIN)))
    throw new Error('Sign-in from the page failed');

  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    // The sync against its floors untraced, as a user's runs: a trace of every task (the
    // browser's IndexedDB work included) slows the sync, and the floors beside it were not traced.
    const plain = await page.evaluate((name) => window.bench.sync(name), `plain-${run}`);
    console.log(`run ${run}: first sync ${s(plain.ms)}; measuring the floors…`);
    const floor = await page.evaluate((name) => window.bench.floor(name), `floor-${run}`);
    const indexed = await page.evaluate((name) => window.bench.indexedFloor(name), `indexed-${run}`);
    // Then a second sync, traced, for its longest tasks and its heap.
    const heapBefore = await heap();
    // The heap's peak while the sync runs, sampled every half second.
    let peak = 0;
    const sampling = setInterval(() => {
      used()
        .then((usedSize) => {
          peak = Math.max(peak, usedSize);
        })
        .catch(() => {});
    }, 500);
    const sync = await traced(() => page.evaluate((name) => window.bench.sync(name), `sync-${run}`)).finally(
      () => clearInterval(sampling),
    );
    const heapAfter = await heap();
    await page.evaluate(
      (names) => Promise.all(names.map((n) => window.bench.remove(n))),
      [`plain-${run}`, `sync-${run}`, `floor-${run}`, `indexed-${run}`],
    );
    runs.push({ plain, sync, floor, indexed, heapBefore, heapAfter, peak });
    console.log(
      `run ${run}: first sync ${s(plain.ms)}, write floor ${s(floor.ms)} (${floor.rows.toLocaleString('en')} rows in ${floor.pages} pages): ${(plain.ms / floor.ms).toFixed(2)}x; ` +
        `with the list index ${s(indexed.ms)} (${(plain.ms / indexed.ms).toFixed(2)}x); ` +
        `traced sync ${s(sync.ms)} (${(sync.ms / floor.ms).toFixed(2)}x the floor): longest main-thread task ${sync.longestTask.toFixed(0)} ms, by CPU ${sync.longestTaskCpu.toFixed(0)} ms (${sync.over100} tasks over 100 ms); ` +
        `JS heap ${(heapAfter / MiB).toFixed(1)} MiB after (${(heapBefore / MiB).toFixed(1)} before, peak ${(peak / MiB).toFixed(1)} during); ${plain.students.toLocaleString('en')} students`,
    );
    // Where the sync's time went, from the pull's User Timing (summed over its pages; a page's
    // 'pending' includes waiting for the page before it to commit, its transaction being queued).
    console.log(
      `run ${run}: pull measures (total ms): ${Object.entries(plain.timing)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
    for (const [what, synced] of [
      ['first', plain],
      ['traced', sync],
    ])
      if (synced.students !== onServer) {
        console.error(
          `run ${run}: the ${what} sync left ${synced.students} students locally, ${onServer} on the server`,
        );
        failed = true;
      }
  }

  // Interrupted by a reload mid-way, then resumed.
  const name = 'resume';
  await page
    .evaluate(([n, k]) => window.bench.sync(n, k), [name, RELOAD_AFTER])
    .then(
      () => {
        throw new Error('The sync ended before the reload');
      },
      () => {},
    );
  await page.waitForLoadState('load');
  await ready();
  const left = await page.evaluate((n) => window.bench.left(n), name);
  const resumed = await page.evaluate((n) => window.bench.sync(n), name);
  await page.evaluate((n) => window.bench.remove(n), name);
  console.log(
    `reload after ${RELOAD_AFTER} pages of students: ${left.students.toLocaleString('en')} students kept, ` +
      `cursor ${left.cursor}, progress ${left.progress ? `${left.progress.received.toLocaleString('en')} of ${left.progress.total.toLocaleString('en')}` : 'none'}; ` +
      `resumed in ${s(resumed.ms)}: ` +
      `${resumed.students.toLocaleString('en')} students, ${onServer.toLocaleString('en')} on the server`,
  );
  if (resumed.students !== onServer || left.students === 0) {
    console.error('The resumed sync did not end with exactly the server’s students, or nothing was kept');
    failed = true;
  }
  await context.close();

  const line = (label, values, fmt) => {
    const x = summary(values);
    console.log(`${label.padEnd(34)} min ${fmt(x.min)}  median ${fmt(x.median)}  max ${fmt(x.max)}`);
  };
  console.log(`\n${RUNS} runs, ${ENGINE}, ${onServer.toLocaleString('en')} students:`);
  line(
    'first sync',
    runs.map((r) => r.plain.ms),
    s,
  );
  line(
    'first sync, traced',
    runs.map((r) => r.sync.ms),
    s,
  );
  line(
    'raw IndexedDB write floor',
    runs.map((r) => r.floor.ms),
    s,
  );
  line(
    'write floor with the list index',
    runs.map((r) => r.indexed.ms),
    s,
  );
  line(
    'first sync / floor',
    runs.map((r) => r.plain.ms / r.floor.ms),
    (x) => `${x.toFixed(2)}x`,
  );
  line(
    'first sync / floor with the index',
    runs.map((r) => r.plain.ms / r.indexed.ms),
    (x) => `${x.toFixed(2)}x`,
  );
  const ms = (x) => `${x.toFixed(0)} ms`;
  line(
    'longest main-thread task',
    runs.map((r) => r.sync.longestTask),
    ms,
  );
  line(
    'longest task by CPU time',
    runs.map((r) => r.sync.longestTaskCpu),
    ms,
  );
  line(
    'tasks over 100 ms',
    runs.map((r) => r.sync.over100),
    String,
  );
  line(
    'JS heap at its peak during the sync',
    runs.map((r) => r.peak / MiB),
    (x) => `${x.toFixed(1)} MiB`,
  );
  line(
    'JS heap after the sync',
    runs.map((r) => r.heapAfter / MiB),
    (x) => `${x.toFixed(1)} MiB`,
  );
} finally {
  await close();
  // Chromium may still be closing its profile's files: try again rather than hide the run's own error.
  await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
if (!(await throttledRuns())) failed = true;
process.exit(failed ? 1 : 0);
