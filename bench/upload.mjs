/**
 * Large upload benchmark (targets: a 200 MB file sent through the fault proxy with the
 * connection cut every 20 MB arrives once and intact, with total bytes sent at most 1.3x the
 * file size; the same file as one multipart request for comparison).
 *
 * One reference server (`node dist-server/index.js`, serving dist-bench/), the fault proxy of
 * bench/fault-proxy.mjs in front of it, and Chromium. The page (bench/upload-page.ts) makes a
 * random file with a PNG's first bytes in memory and sends it with the app's real resumable
 * upload (tus-js-client over fetch, 5 MB chunks). Each run, on the same file:
 *   1. resumable, clean: through the proxy without faults;
 *   2. resumable, cut: the proxy cuts whichever connection carries each further 20 MB;
 *      checked: one upload created, the server's copy has the file's SHA-256, bytes sent
 *      (counted by the proxy, headers included) at most 1.3x the file;
 *   3. one multipart request (Add Chapter's form, as the PHP API takes files) to our server:
 *      its 12 MB body limit refuses it, so for the transfer itself the same request also goes
 *      to a bare sink (Node http counting the body, behind its own proxy), clean and then
 *      with the same cuts (3 attempts, as the outbox would retry).
 *
 * Prints figures and min/median/max over the runs; exits 1 when a resumable upload is not
 * delivered once and intact or sends more than 1.3x (never on timings).
 * Run: `npm run bench`, or `node bench/upload.mjs` after `npm run build:server` and
 * `npx vite build --config vite.bench.config.ts`. BENCH_UPLOAD_MB (default 200),
 * BENCH_UPLOAD_CUT_MB (20), BENCH_UPLOAD_RUNS (3), CHROMIUM_PATH.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { needBuilt } from './built.mjs';
import { startFaultProxy } from './fault-proxy.mjs';
import { ADMIN, startBenchServer } from './server.mjs';

// The page this bench opens, served from dist-bench/ (npm run bench removes it when it ends).
needBuilt('dist-bench/upload.html');

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB || 200) * MB;
const CUT = Number(process.env.BENCH_UPLOAD_CUT_MB || 20) * MB;
const RUNS = Number(process.env.BENCH_UPLOAD_RUNS || 3);
const MULTIPART_ATTEMPTS = 3;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const CHAPTER = {
  selectedClass: '1',
  selectedSubject: '1',
  selectedSeries: '1',
  selectedBook: '1',
  chapterName: 'Large upload',
  chapterDescription: '',
};

async function fileSha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/** A bare HTTP endpoint that reads a whole request body and says how much it got. */
async function startSink() {
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.end(JSON.stringify({ success: true, bytes }));
    });
    req.on('error', () => {});
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: server.address().port,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(closed);
      }),
  };
}

const since = (proxy, before) => ({
  bytesUp: proxy.stats.bytesUp - before.bytesUp,
  cuts: proxy.stats.cuts - before.cuts,
  lines: proxy.requestLines.slice(before.lines),
});
const snapshot = (proxy) => ({
  bytesUp: proxy.stats.bytesUp,
  cuts: proxy.stats.cuts,
  lines: proxy.requestLines.length,
});
const count = (lines, pattern) => lines.filter((l) => pattern.test(l)).length;

async function resumableRun(page, proxy, server, expected, cutEvery) {
  const before = snapshot(proxy);
  proxy.cutEvery(cutEvery);
  const { outcome, ms, progressEvents } = await page.evaluate(() => window.uploadBench.resumable());
  proxy.cutEvery(null);
  const seen = since(proxy, before);
  const result = {
    ms,
    progressEvents,
    ...seen,
    /** Creation requests seen by the proxy (Chromium may re-send one whose reused connection had died). */
    creations: count(seen.lines, /^POST \/api\/uploads\/resumable\/$/),
    /** Uploads the server holds afterwards: one means delivered once. */
    created: 0,
    patches: count(seen.lines, /^PATCH /),
    heads: count(seen.lines, /^HEAD /),
    delivered: false,
    intact: false,
  };
  if (outcome.kind !== 'done') return { ...result, problem: JSON.stringify(outcome) };
  const id = outcome.reference.replace(/^tus:/, '');
  const dir = join(server.dataDir, 'tus');
  const stored = (await readdir(dir)).filter((f) => !f.endsWith('.json'));
  result.created = stored.length;
  result.delivered = stored.length === 1 && stored[0] === id;
  result.intact = result.delivered && (await fileSha256(join(dir, id))) === expected;
  // The next run starts from an empty store.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  return result;
}

async function multipartRun(page, proxy, url, credentials) {
  const before = snapshot(proxy);
  const reply = await page.evaluate(
    ([u, fields, cred]) => window.uploadBench.multipart(u, fields, cred),
    [url, CHAPTER, credentials],
  );
  return { ...reply, ...since(proxy, before) };
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const mb = (bytes) => `${fmt(bytes / MB)} MB`;
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
}
const spreadLine = (label, values, unit, digits = 2) => {
  const s = spread(values);
  return `  ${label}: min ${fmt(s.min, digits)}${unit}, median ${fmt(s.median, digits)}${unit}, max ${fmt(s.max, digits)}${unit}`;
};

/**
 * One run: the resumable upload clean and cut every CUT bytes, then one multipart request to
 * the bare sink clean and MULTIPART_ATTEMPTS with the same cuts.
 */
async function oneRun(page, { proxy, server, sinkProxy }, expected, run) {
  const clean = await resumableRun(page, proxy, server, expected, null);
  const cut = await resumableRun(page, proxy, server, expected, CUT);
  const sinkClean = await multipartRun(page, sinkProxy, `${sinkProxy.url}/sink`, 'omit');
  sinkProxy.cutEvery(CUT);
  const attempts = [];
  for (let a = 0; a < MULTIPART_ATTEMPTS; a++)
    attempts.push(await multipartRun(page, sinkProxy, `${sinkProxy.url}/sink`, 'omit'));
  sinkProxy.cutEvery(null);
  return { run, clean, cut, sinkClean, attempts };
}

/** What a run's resumable uploads got wrong: not delivered once and intact, or too many bytes sent. */
function problemsOf({ run, clean, cut }) {
  const problems = [];
  for (const [name, r] of [
    ['clean', clean],
    ['cut', cut],
  ]) {
    if (!r.delivered || !r.intact || r.created !== 1)
      problems.push(
        `run ${run} ${name}: delivered ${r.delivered}, intact ${r.intact}, uploads created ${r.created}${r.problem ? `, ${r.problem}` : ''}`,
      );
    if (r.bytesUp > 1.3 * SIZE) problems.push(`run ${run} ${name}: sent ${mb(r.bytesUp)}, over 1.3x`);
  }
  return problems;
}

/** A row per run, the spread of each figure over the runs, and the multipart request to our server. */
function printResults(rows, product, ourServer) {
  console.log(`Chromium ${product}; reference server on PGlite; ${mb(SIZE)} file; cuts every ${mb(CUT)}`);
  console.table(
    rows.map(({ run, clean, cut, sinkClean, attempts }) => ({
      run,
      'resumable clean s': fmt(clean.ms / 1000, 2),
      'resumable cut s': fmt(cut.ms / 1000, 2),
      cuts: cut.cuts,
      'sent / size': fmt(cut.bytesUp / SIZE, 3),
      'POST+PATCH+HEAD': `${cut.creations}+${cut.patches}+${cut.heads}`,
      'once, intact': `${cut.created === 1 && cut.delivered}, ${cut.intact}`,
      'multipart clean s': fmt(sinkClean.ms / 1000, 2),
      [`multipart cut: ${MULTIPART_ATTEMPTS} tries`]: `${attempts.filter((a) => a.status === 200).length} delivered, ${mb(attempts.reduce((s, a) => s + a.bytesUp, 0))} sent`,
    })),
  );
  console.log('min / median / max over the runs:');
  console.log(
    spreadLine(
      'resumable, clean',
      rows.map((r) => r.clean.ms / 1000),
      ' s',
    ),
  );
  console.log(
    spreadLine(
      'resumable, cut every 20 MB',
      rows.map((r) => r.cut.ms / 1000),
      ' s',
    ),
  );
  console.log(
    spreadLine(
      'bytes sent / file size, cut',
      rows.map((r) => r.cut.bytesUp / SIZE),
      'x',
      3,
    ),
  );
  console.log(
    spreadLine(
      'bytes sent / file size, clean',
      rows.map((r) => r.clean.bytesUp / SIZE),
      'x',
      3,
    ),
  );
  console.log(
    spreadLine(
      'one multipart request to a bare sink, clean',
      rows.map((r) => r.sinkClean.ms / 1000),
      ' s',
    ),
  );
  console.log(
    `One multipart request to our server: status ${ourServer?.status} after ${fmt((ourServer?.ms ?? 0) / 1000, 2)} s, ` +
      `${mb(ourServer?.bytesUp ?? 0)} sent (${ourServer?.body}).`,
  );
  console.log(
    `Targets (issue): with a cut every ${mb(CUT)}, delivered once and intact, bytes sent <= 1.3x the file size.`,
  );
}

async function main() {
  const server = await startBenchServer();
  const proxy = await startFaultProxy(server.port);
  const sink = await startSink();
  const sinkProxy = await startFaultProxy(sink.port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const rows = [];
  const problems = [];
  let product = '';
  let ourServer = null;
  try {
    product = browser.version();
    // The bench page is served by our server, whose CSP (connect-src 'self') would block the
    // comparison request to the bare sink on another port; the bench is not the app.
    const page = await browser.newPage({ bypassCSP: true });
    page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
    await page.goto(`${proxy.url}/upload.html`);
    await page.waitForFunction(() => document.title === 'upload bench ready');
    if (!(await page.evaluate((a) => window.uploadBench.signIn(a.username, a.password), ADMIN)))
      throw new Error('Sign-in from the page failed');
    const expected = await page.evaluate((size) => window.uploadBench.makeFile(size), SIZE);

    ourServer = await multipartRun(page, proxy, '/api/Masterfilter/Chapters/addchapters.php', 'include');
    for (let run = 1; run <= RUNS; run++) {
      process.stdout.write(`  run ${run} of ${RUNS} ...\n`);
      const row = await oneRun(page, { proxy, server, sinkProxy }, expected, run);
      rows.push(row);
      problems.push(...problemsOf(row));
    }
  } finally {
    await browser.close();
    await sinkProxy.close();
    await sink.close();
    await proxy.close();
    await server.close();
  }

  printResults(rows, product, ourServer);
  if (problems.length) {
    for (const p of problems) console.error(`FAIL ${p}`);
    process.exit(1);
  }
}

await main();
