/**
 * Recovery after the server comes back (target: the first request after the server answers
 * again goes out within 2 s, also after several outages in a row, however long the queue's
 * backoff had grown).
 *
 * One reference server (bench/server.mjs), the fault proxy in front of it (its log has the time
 * each request arrived) and Chromium with an on-disk profile on the bench page, which runs the
 * window's own scheduler (src/sync/scheduler.ts: timers for due retries, the probe of the
 * server while changes wait for it, online/visibility) over the app's replay and pull. Then,
 * several times in a row: the server is killed (SIGKILL, as a crash), a change is made while
 * it is down (its attempts fail; its backoff grows 1 s, 2 s, 4 s, 8 s ...), after
 * BENCH_RECOVERY_DOWN_S seconds the server starts again on the same port and data, and the
 * bench measures from the moment it listens to the moment the first outbox request reaches
 * it (the proxy's log), beside what the change's backoff still had to run at that moment (the
 * wait without recovery, read from the outbox as the server starts listening; the start
 * itself, PGlite recovering its files, takes seconds, during which retries go on failing). Then it waits for the change to be delivered and kills again.
 *
 * Prints each outage and min / median / max; exits 1 when a change is lost or applied twice,
 * never on timings. Options: BENCH_RECOVERY_RUNS (outages, default 4), BENCH_RECOVERY_DOWN_S
 * (default 15), CHROMIUM_PATH. Build first (see drain.mjs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { needBuilt } from './built.mjs';
import { startFaultProxy } from './fault-proxy.mjs';
import { ADMIN, serverSignIn, startBenchServer } from './server.mjs';

// The page this bench opens, served from dist-bench/ (npm run bench removes it when it ends).
needBuilt('dist-bench/bench.html');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const OUTAGES = Number(process.env.BENCH_RECOVERY_RUNS || 4);
const DOWN_MS = Number(process.env.BENCH_RECOVERY_DOWN_S || 15) * 1000;
/** Past this after the server is back, the change counts as not sent (reported, not waited for). */
const GIVE_UP_MS = 120_000;
const PREFIX = 'Recovery';
/** Outbox writes, alone or batched (the probe and pulls are GETs). */
const WRITE = /^POST \/api\/(sync\/batch|Masterfilter\/)/;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const fmt = (n, digits = 0) => n.toFixed(digits);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => `min ${fmt(Math.min(...xs))}, median ${fmt(median(xs))}, max ${fmt(Math.max(...xs))}`;

/** Polls `test` until it gives a value, or null after `limitMs`. */
async function until(test, limitMs) {
  const started = performance.now();
  for (;;) {
    const value = await test();
    if (value) return value;
    if (performance.now() - started > limitMs) return null;
    await sleep(20);
  }
}

async function main() {
  const server = await startBenchServer();
  const proxy = await startFaultProxy(server.port, { seed: 1 });
  const profile = await mkdtemp(join(tmpdir(), 'bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const outages = [];
  let bad = false;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
    await page.goto(`${proxy.url}/bench.html`);
    await page.waitForFunction(() => document.title === 'bench ready');
    if (!(await page.evaluate((a) => window.bench.signIn(a.username, a.password), ADMIN)))
      throw new Error('Sign-in from the page failed');
    await page.evaluate(() => window.bench.startScheduler());

    for (let i = 1; i <= OUTAGES; i++) {
      await server.kill();
      await page.evaluate((name) => window.bench.change(name), `${PREFIX} ${i}`);
      await sleep(DOWN_MS);
      await server.restart();
      const upAt = performance.now();
      const upEpoch = Date.now();
      // Read at once, before a probe gets through: when the change's backoff would let it go.
      const waiting = await page.evaluate(() => window.bench.outboxState());
      const first = await until(
        () => proxy.requestLog.find((r) => r.at >= upAt && WRITE.test(r.line)),
        GIVE_UP_MS,
      );
      const left = Math.max(0, Math.min(...waiting.map((e) => e.nextAttemptAt)) - upEpoch);
      outages.push({
        outage: i,
        'attempts while down': Math.max(...waiting.map((e) => e.attempts)),
        'backoff left when back, ms (without recovery)': fmt(left),
        'first outbox request after, ms': first ? fmt(first.at - upAt) : `none in ${GIVE_UP_MS / 1000} s`,
        left,
        delay: first ? first.at - upAt : null,
      });
      const drained = await until(
        async () => (await page.evaluate(() => window.bench.outboxState())).length === 0,
        GIVE_UP_MS,
      );
      if (!drained) {
        bad = true;
        console.error(`FAIL outage ${i}: the change was not delivered within ${GIVE_UP_MS / 1000} s`);
      }
    }

    const cookie = await serverSignIn(server.apiRoot);
    const res = await fetch(`${server.apiRoot}/Masterfilter/Classes/fetchclasses.php`, {
      headers: { Cookie: cookie },
    });
    const names = (await res.json()).classes.map((c) => c.class_name).filter((n) => n.startsWith(PREFIX));
    for (let i = 1; i <= OUTAGES; i++) {
      const count = names.filter((n) => n === `${PREFIX} ${i}`).length;
      if (count !== 1) {
        bad = true;
        console.error(`FAIL '${PREFIX} ${i}' is on the server ${count} times`);
      }
    }
    const { product } = await (await context.newCDPSession(page)).send('Browser.getVersion');
    console.log(
      `${product}, on-disk profile; ${OUTAGES} outages of ${DOWN_MS / 1000} s in a row (SIGKILL, restart on the same data)`,
    );
  } finally {
    await context.close();
    await proxy.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
  console.table(outages.map(({ left, delay, ...row }) => row));
  const delays = outages.map((o) => o.delay).filter((d) => d !== null);
  if (delays.length)
    console.log(
      `From the server listening again to the first outbox request, ms: ${spread(delays)}; ` +
        `the backoff that was left then (the wait without recovery), ms: ${spread(outages.map((o) => o.left))}`,
    );
  console.log('Target: the first request within 2 s of the server answering again.');
  if (bad) process.exit(1);
}

await main();
