/**
 * Bulk actions: 1,000 rows queued by one bulk action (src/db/bulk/bulk-changes.ts: one
 * change per row, slices of 100 rows per transaction) and drained, beside 1,000 single edits
 * of the same rows (one `mutate`, one transaction, each) drained in the same run.
 *
 * Each run: a fresh reference server (PGlite), Chromium with a fresh on-disk profile, the
 * bench page (bench/bench-page.ts, the app's real modules): 1,000 classes added and sent
 * (setup, not timed); offline, 1,000 single renames queued (timed, with the longest main-thread
 * task), online, drained (timed); offline, a bulk delete of the same 1,000 classes queued
 * (timed, longest task), online, drained (timed). The server must end with none of them.
 *
 * Prints figures (min / median / max over BENCH_RUNS runs, default 3); exits 1 when a row is
 * left or a change not drained (never on timings). Run: `npm run bench`, or `node bench/bulk.mjs`
 * after `npm run build:server` and `npx vite build --config vite.bench.config.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { needBuilt } from './built.mjs';
import { ADMIN, serverSignIn, startBenchServer } from './server.mjs';

// The page this bench opens, served from dist-bench/ (npm run bench removes it when it ends).
needBuilt('dist-bench/bench.html');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const ROWS = Number(process.env.BENCH_ROWS || 1000);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const PREFIX = 'Bulk';

async function runOnce() {
  const server = await startBenchServer();
  const profile = await mkdtemp(join(tmpdir(), 'bench-bulk-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
    await page.goto(`${server.apiRoot.replace(/\/api$/, '')}/bench.html`);
    await page.waitForFunction(() => document.title === 'bench ready');
    if (!(await page.evaluate((a) => window.bench.signIn(a.username, a.password), ADMIN)))
      throw new Error('Sign-in from the page failed');
    const setup = await page.evaluate(([prefix, n]) => window.bench.setup(prefix, n), [PREFIX, ROWS]);
    const ids = setup.baseClassIds;

    await context.setOffline(true);
    const single = await page.evaluate(([i, p]) => window.bench.singleEdits(i, p), [ids, PREFIX]);
    await context.setOffline(false);
    const singleDrain = await page.evaluate(() => window.bench.drain());

    await context.setOffline(true);
    const bulk = await page.evaluate((i) => window.bench.bulkDelete(i), ids);
    await context.setOffline(false);
    const bulkDrain = await page.evaluate(() => window.bench.drain());

    const cookie = await serverSignIn(server.apiRoot);
    const res = await fetch(`${server.apiRoot}/Masterfilter/Classes/fetchclasses.php`, {
      headers: { Cookie: cookie },
    });
    const left = (await res.json()).classes.filter((c) => String(c.class_name).startsWith(PREFIX)).length;
    return { single, singleDrain, bulk, bulkDrain, left };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    await server.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs, digits = 0) =>
  `${Math.min(...xs).toFixed(digits)} / ${median(xs).toFixed(digits)} / ${Math.max(...xs).toFixed(digits)}`;

async function main() {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    process.stdout.write(`  run ${i + 1} of ${RUNS} ...\n`);
    runs.push(await runOnce());
  }
  const rate = (n, ms) => n / (ms / 1000);
  console.log(`${ROWS} rows, ${RUNS} runs; min / median / max`);
  console.table({
    'single edits': {
      'queue ms': spread(runs.map((r) => r.single.ms)),
      'queue rows/s': spread(runs.map((r) => rate(r.single.entries, r.single.ms))),
      'longest task ms (>= 50 counted)': spread(runs.map((r) => r.single.longestTaskMs)),
      'drain ms': spread(runs.map((r) => r.singleDrain.ms)),
      'drain rows/s': spread(runs.map((r) => rate(r.single.entries, r.singleDrain.ms))),
      batches: spread(runs.map((r) => r.singleDrain.http.batches)),
    },
    'bulk delete': {
      'queue ms': spread(runs.map((r) => r.bulk.ms)),
      'queue rows/s': spread(runs.map((r) => rate(r.bulk.entries, r.bulk.ms))),
      'longest task ms (>= 50 counted)': spread(runs.map((r) => r.bulk.longestTaskMs)),
      'drain ms': spread(runs.map((r) => r.bulkDrain.ms)),
      'drain rows/s': spread(runs.map((r) => rate(r.bulk.entries, r.bulkDrain.ms))),
      batches: spread(runs.map((r) => r.bulkDrain.http.batches)),
    },
  });
  const bad = runs.filter(
    (r) => r.left > 0 || r.singleDrain.left > 0 || r.bulkDrain.left > 0 || r.bulk.changed !== ROWS,
  );
  if (bad.length) {
    console.error(
      `FAILED: ${bad.length} run(s) left rows or changes: ${JSON.stringify(bad.map((r) => r.left))}`,
    );
    process.exit(1);
  }
}

await main();
