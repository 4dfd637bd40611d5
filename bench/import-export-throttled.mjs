/**
 * The import and export steps at a CPU throttle (bench/import-export.mjs runs it after its own
 * runs): for each build bench/baseline.mjs compares (an earlier release, then this one), that
 * build's bench/csv.html served from its dist-bench/, in a fresh Chromium profile throttled to
 * `rate`× CPU from the start; the builds alternate run by run. Each step (check 10,000 and
 * 100,000 rows, queue 10,000, export every student) prints its time and the longest main-thread
 * task meanwhile, and every task over 100 ms with what it was (bench/long-tasks.mjs; a build
 * whose page does not give its steps' times gives the longest only).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { buildsToCompare } from './baseline.mjs';
import { launchFreshProfile } from './browser.mjs';
import { recordLongTasksIn, throttle } from './long-tasks.mjs';
import { summary } from './scale-server.mjs';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const STEPS = [
  ['check10k', 'Parse and check 10,000 rows'],
  ['check100k', 'Parse and check 100,000 rows'],
  ['queue10k', 'Queue 10,000 rows in the outbox'],
  ['export100k', 'Export every student'],
];

/** `dir` served on a free port (the page and its workers from one origin); resolves to { origin, close }. */
export async function serve(dir) {
  const server = createServer((req, res) => {
    const path = join(dir, new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(dir) || !existsSync(path)) return res.writeHead(404).end();
    res
      .writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' })
      .end(readFileSync(path));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** One run of the page's steps at `rate`× CPU: each step's time, longest task and tasks over 100 ms. */
async function throttledRun(origin, students, rate) {
  const { context, close } = await launchFreshProfile('bench-csv-profile-');
  try {
    await recordLongTasksIn(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await throttle(context, page, rate);
    await page.goto(`${origin}/csv.html`);
    await page.waitForFunction(() => document.title === 'csv bench ready', null, { timeout: 0 });
    const result = await page.evaluate((o) => window.csvBench.run(o), {
      students,
      only: '',
      queueOnly: false,
    });
    await page.waitForTimeout(200);
    const { tasks, frames } = await page.evaluate(() => window.__longTasks);
    const figures = {};
    for (const [key] of STEPS) {
      const step = result[key];
      const over100 = step.at
        ? tasks
            .filter((t) => t.start >= step.at[0] && t.start <= step.at[1] && t.duration > 100)
            .map((t) => {
              const frame = frames.find((f) => f.start <= t.start + 1 && t.start < f.start + f.duration);
              return `${Math.round(t.duration)} ms [${frame?.scripts.join('; ') || 'no script attributed'}]`;
            })
        : null;
      figures[key] = { ms: step.ms, longest: step.longestTaskMs, over100 };
    }
    return figures;
  } finally {
    await close();
  }
}

export async function throttledImportExport({ students, runs, rate }) {
  const builds = [];
  try {
    for (const build of buildsToCompare())
      builds.push({ ...build, ...(await serve(join(build.root, 'dist-bench'))), runs: [] });
    console.log(`\nAt ${rate}x CPU, ${builds.map((b) => b.label).join(' and ')} alternately:`);
    for (let run = 1; run <= runs; run++)
      for (const build of builds) {
        const figures = await throttledRun(build.origin, students, rate);
        build.runs.push(figures);
        for (const [key, label] of STEPS) {
          const f = figures[key];
          const over =
            f.over100 === null
              ? ''
              : `, ${f.over100.length} over 100 ms${f.over100.length ? `: ${f.over100.slice(0, 4).join(' | ')}` : ''}`;
          console.log(
            `run ${run}, ${build.label}, ${label}: ${f.ms.toFixed(0)} ms; longest main-thread task ${f.longest.toFixed(0)} ms${over}`,
          );
        }
      }
    console.log(`\n${runs} runs at ${rate}x CPU, ${students} students (min / median / max):`);
    for (const [key, label] of STEPS) {
      const medians = builds.map((build) => {
        const longest = summary(build.runs.map((r) => r[key].longest));
        const ms = summary(build.runs.map((r) => r[key].ms));
        console.log(
          `${build.label}, ${label}: ${ms.min.toFixed(0)} / ${ms.median.toFixed(0)} / ${ms.max.toFixed(0)} ms; longest main-thread task ${longest.min.toFixed(0)} / ${longest.median.toFixed(0)} / ${longest.max.toFixed(0)} ms`,
        );
        return longest.median;
      });
      if (builds.length === 2 && medians[0] > 0)
        console.log(
          `  this build / ${builds[0].label}, longest task (medians): ${(medians[1] / medians[0]).toFixed(2)}x`,
        );
    }
  } finally {
    for (const build of builds) build.close?.();
  }
}
