/**
 * Import and export benchmark: the app's CSV worker (src/csv-worker.ts) in Chromium
 * with an on-disk profile, 300 schools and 100,000 students seeded in the device's IndexedDB
 * through the app's pull path (bench/csv-page.ts). Each run, from a fresh profile:
 *   - parse and check a file of 10,000 and of 100,000 new students (papaparse in the worker,
 *     the forms' rules, parents by name);
 *   - queue 10,000 checked rows in the outbox (250 a transaction, with the import's position);
 *   - export the 100,000 students (the export's columns, parents by name).
 * Each with its wall time and the longest task on the page's main thread meanwhile
 * (PerformanceObserver 'longtask': 0 means none over 50 ms), and for the queueing the CPU time
 * the browser process (IndexedDB) and the renderer (the page and its workers) spent on it, read
 * from /proc (bench/cpu.mjs: steadier than wall time on a shared machine). Prints min / median / max over
 * the runs; never fails on timings. Needs the bench pages (`npx vite build --config
 * vite.bench.config.ts`). Options: BENCH_CSV_RUNS (3), BENCH_CSV_STUDENTS (100000), CHROMIUM_PATH,
 * BENCH_CSV_QUEUE_ONLY=1 (only the 10,000 rows' check and queueing), BENCH_CPU_PROFILE=<dir> (a CPU profile of the page and of the CSV worker per run, written there
 * as .cpuprofile files; `node bench/profile-top.mjs <dir>` lists where the time went).
 * Then be236b9 and this build alternately at BENCH_CSV_THROTTLE× CPU (4; 1: unthrottled, 0 skips), BENCH_CSV_THROTTLED_RUNS
 * (3) each, every step's longest main-thread task and each over 100 ms with what it was
 * (bench/import-export-throttled.mjs; BENCH_CSV_THROTTLED_ONLY=1 runs only those).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchFreshProfile } from './browser.mjs';
import { needBuilt } from './built.mjs';
import { cpuBetween, cpuSnapshot } from './cpu.mjs';
import { serve, throttledImportExport } from './import-export-throttled.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist-bench');
const RUNS = Number(process.env.BENCH_CSV_RUNS || 3);
const STUDENTS = Number(process.env.BENCH_CSV_STUDENTS || 100_000);
/** 'export': only the export (a quicker run when working on it). */
const ONLY = process.env.BENCH_CSV_ONLY || '';
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
/** BENCH_CSV_QUEUE_ONLY=1: only the check of 10,000 rows and their queueing (no 100,000-row check, no export). */
const QUEUE_ONLY = process.env.BENCH_CSV_QUEUE_ONLY === '1';

needBuilt('dist-bench/csv.html');

/** Then the builds side by side at a CPU throttle (bench/import-export-throttled.mjs); 0 skips it. */
const THROTTLE = Number(process.env.BENCH_CSV_THROTTLE ?? 4);
const THROTTLED_RUNS = Number(process.env.BENCH_CSV_THROTTLED_RUNS ?? 3);
const throttledRuns = async () => {
  if (THROTTLE >= 1 && THROTTLED_RUNS > 0)
    await throttledImportExport({ students: STUDENTS, runs: THROTTLED_RUNS, rate: THROTTLE });
};
if (process.env.BENCH_CSV_THROTTLED_ONLY === '1') {
  await throttledRuns();
  process.exit(0);
}

// The page and its worker from one origin (IndexedDB is per origin); no API is needed.
const server = await serve(DIST);
const { origin } = server;

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0].toFixed(0)} / ${s[Math.floor(s.length / 2)].toFixed(0)} / ${s.at(-1).toFixed(0)}`;
};

/**
 * Samples the page and every worker it starts (the CSV worker does the queueing). Dedicated
 * workers are reached through the page's CDP session with auto-attach in non-flat mode
 * (messages wrapped in Target.sendMessageToTarget), which Playwright's CDPSession can carry.
 * Answers a function that stops the profiles and writes them to BENCH_CPU_PROFILE.
 */
async function profileAll(context, page, run) {
  const cdp = await context.newCDPSession(page);
  const waiting = new Map();
  const workers = new Map();
  let id = 1;
  const toWorker = (sessionId, method, params = {}) =>
    new Promise((done) => {
      const n = id++;
      waiting.set(n, done);
      cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id: n, method, params }),
      });
    });
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const m = JSON.parse(message);
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)(m.result);
      waiting.delete(m.id);
    }
  });
  cdp.on('Target.attachedToTarget', async ({ sessionId, targetInfo }) => {
    if (targetInfo.type !== 'worker') return;
    workers.set(sessionId, targetInfo.title || targetInfo.url);
    await toWorker(sessionId, 'Profiler.enable');
    await toWorker(sessionId, 'Profiler.setSamplingInterval', { interval: 500 });
    await toWorker(sessionId, 'Profiler.start');
    await toWorker(sessionId, 'Runtime.runIfWaitingForDebugger');
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async () => {
    mkdirSync(PROFILE_DIR, { recursive: true });
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(join(PROFILE_DIR, `run${run}-page.cpuprofile`), JSON.stringify(profile));
    for (const [sessionId, name] of workers) {
      const result = await toWorker(sessionId, 'Profiler.stop');
      const file = `run${run}-worker-${String(name)
        .split('/')
        .pop()
        .replace(/[^\w.-]/g, '_')}.cpuprofile`;
      if (result?.profile) writeFileSync(join(PROFILE_DIR, file), JSON.stringify(result.profile));
    }
  };
}

const results = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const { context, close } = await launchFreshProfile('bench-csv-profile-');
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const cpu = {};
      await page.exposeFunction('benchCpu', (name) => {
        cpu[name] = cpuSnapshot(-1);
      });
      const stopProfile = PROFILE_DIR ? await profileAll(context, page, run + 1) : null;
      await page.goto(`${origin}/csv.html`);
      await page.waitForFunction(() => document.title === 'csv bench ready');
      const result = await page.evaluate((o) => window.csvBench.run(o), {
        students: STUDENTS,
        only: ONLY,
        queueOnly: QUEUE_ONLY,
      });
      await stopProfile?.();
      if (cpu['queue start'] && cpu['queue end']) {
        const used = cpuBetween(cpu['queue start'], cpu['queue end']);
        result.queue10k.cpu = { browser: used.byKind.browser ?? 0, renderer: used.byKind.renderer ?? 0 };
      }
      results.push(result);
      console.log(`run ${run + 1}: ${JSON.stringify(result)}`);
      // The CSV worker's own measures of the export's parts (User Timing).
      for (const worker of page.workers()) {
        const parts = await worker.evaluate(() =>
          performance
            .getEntriesByType('measure')
            .filter((m) => m.name.startsWith('export '))
            .map((m) => `${m.name} ${m.duration.toFixed(0)} ms`),
        );
        if (parts.length) console.log(`  ${parts.join('; ')}`);
      }
    } finally {
      await close();
    }
  }
} finally {
  server.close();
}

const line = (label, key) =>
  console.log(
    `${label}: ${stats(results.map((r) => r[key].ms))} ms; longest main-thread task ${stats(results.map((r) => r[key].longestTaskMs))} ms`,
  );
console.log(`\n${RUNS} runs, ${STUDENTS} students on the device (min / median / max):`);
if (ONLY !== 'export') {
  line('Parse and check 10,000 rows', 'check10k');
  line('Parse and check 100,000 rows', 'check100k');
  line('Queue 10,000 rows in the outbox', 'queue10k');
  const cpus = results.map((r) => r.queue10k.cpu).filter(Boolean);
  if (cpus.length)
    console.log(
      `  CPU of the queueing: browser process (IndexedDB) ${stats(cpus.map((c) => c.browser))} ms; renderer (page, workers) ${stats(cpus.map((c) => c.renderer))} ms`,
    );
}
line(`Export ${STUDENTS} rows`, 'export100k');
if (ONLY === 'export')
  line(`Export ${STUDENTS} rows with the list worker's keys (the Export button's way)`, 'exportFromList');
console.log(
  `Floor, the same runs: every row read by one IndexedDB getAll (page): ${stats(results.map((r) => r.floor.ms))} ms`,
);
await throttledRuns();
