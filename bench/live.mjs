/**
 * Live stream benchmark (GET /api/sync/events, server/live; the device's side
 * src/sync/live-stream.ts and src/app/live-pokes.ts). Three parts, each printing its figures:
 *
 * 1. paint: a commit made on one server process, painted on a device whose stream is held by
 *    another. Three processes of the built server (dist-server/, serving dist/) behind haproxy
 *    (deploy/haproxy.cfg) on a throwaway PostgreSQL; Chromium signs in through haproxy, opens
 *    the classes list and waits for the top bar's 'Live'. Before each change the bench reads
 *    every process's /metrics (live_streams_open) to find the one holding the device's stream,
 *    and sends the rename of the class the list shows straight to another process. Time: from
 *    just before the request is sent to the frame after the new name is in the list (wall
 *    clock on both sides, one machine). BENCH_LIVE_CHANGES (100) renames: min / p50 / p95 / max.
 * 2. rounds: what the same device sends, one process on PGlite, this build beside the release
 *    before the live stream (the commit before server/live/events-route.ts was added, exported
 *    with `git archive` into a temp folder and built there once; BENCH_LIVE_BEFORE: a checkout
 *    with dist/ and dist-server/ built to use instead). Chrome's own network events (CDP) of the
 *    page's API requests: idle for BENCH_LIVE_IDLE_S (120) s, requests (an open stream counts
 *    once) and bytes received (headers and body) per minute; then one class added elsewhere:
 *    the requests and bytes of the round that brought it (the stream's event included), by path.
 * 3. streams: 1,000 raw SSE connections (250 sessions, 4 streams each, the most a session may
 *    have; the sessions are inserted into the sessions table as a sign-in would make them) on
 *    one process on PostgreSQL: its RSS before and after, its CPU over 60 s idle (keep-alives
 *    and their session checks) as a share of one core, and the time from an add sent through
 *    the API until each stream has the event (p50 / max over the streams).
 *
 * Prints figures; never fails on timings. Exits 1 if a change is never painted or a stream
 * misses the event. Needs `npm run build:app` and `npm run build:server`, Debian's chromium,
 * postgresql and haproxy. Options: BENCH_LIVE_ONLY (paint,rounds,streams), BENCH_LIVE_CHANGES,
 * BENCH_LIVE_IDLE_S, BENCH_LIVE_STREAMS (1000), BENCH_LIVE_BEFORE, CHROMIUM_PATH.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { freePort, startHaproxy, waitFor200 } from '../scripts/cluster-lib.mjs';
import { startThrowawayPostgres } from '../scripts/pg-cluster.mjs';
import { prepareBuildOf } from './baseline.mjs';
import { needBuilt } from './built.mjs';
import { ADMIN, serverSignIn } from './server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const CHANGES = Number(process.env.BENCH_LIVE_CHANGES || 100);
const IDLE_S = Number(process.env.BENCH_LIVE_IDLE_S || 120);
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS || 1000);
const STREAMS_PER_SESSION = 4;
const CPU_IDLE_S = 60;
const ONLY = (process.env.BENCH_LIVE_ONLY || 'paint,rounds,streams').split(',');
const CLASSES = 'Masterfilter/Classes';
const TOKEN = randomBytes(3).toString('hex');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const ms = (v) => `${Math.round(v)} ms`;
const spread = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return `min ${ms(s[0])} / p50 ${ms(quantile(s, 0.5))} / p95 ${ms(quantile(s, 0.95))} / max ${ms(s.at(-1))}`;
};
const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;

/** RSS (kB) and CPU ticks (user + system) of a process, from /proc. */
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const cpuTicks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const TICKS_PER_S = 100;

/**
 * One process of the server built in `dir` (dist-server/index.js, serving its dist/), on a free
 * port; resolves once GET /healthz answers with its pid.
 */
async function startServer(dir, env) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, 'dist-server/index.js')], {
    cwd: dir,
    env: {
      ...process.env,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      STATIC_DIR: join(dir, 'dist'),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr.on('data', (c) => {
    tail = `${tail}${c}`.slice(-4000);
  });
  const exited = new Promise((done) => child.once('exit', done));
  process.on('exit', () => child.kill('SIGKILL'));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${tail}`);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    const body = res ? await res.json().catch(() => null) : null;
    if (body?.pid === child.pid) break;
    if (i > 1200) throw new Error(`server on ${port} did not answer within 60 s:\n${tail}`);
    await sleep(50);
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs in from Node (to `url`, a process or the balancer); returns the Cookie header value. */
const signIn = (url) => serverSignIn(`${url}/api`);

/** A JSON write as the legacy client sends it, to `url`'s own origin. */
async function post(url, cookie, path, body) {
  const res = await fetch(`${url}/api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: url },
    body: JSON.stringify(body),
  });
  const reply = await res.json().catch(() => null);
  if (res.status !== 200 || !reply?.success)
    throw new Error(`${path}: ${res.status} ${JSON.stringify(reply)}`);
  return reply;
}

/** In the page, before the app: the wall-clock time each name was first painted in a list's rows. */
function paintWatch() {
  const seen = {};
  window.__painted = seen;
  const check = () => {
    for (const cell of document.querySelectorAll('tbody td.cell-primary')) {
      const name = cell.textContent;
      if (name in seen) continue;
      seen[name] = -1;
      // The frame after the DOM showed it, as bench/dashboard.mjs measures "painted".
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          seen[name] = Date.now();
        };
        channel.port2.postMessage(null);
      });
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Resolves with the wall-clock time `name` was painted in the list (a row's name cell holds it). */
async function paintedAt(page, name, timeout) {
  const handle = await page.waitForFunction(
    (n) => {
      const hit = Object.entries(window.__painted ?? {}).find(([text, at]) => text.includes(n) && at > 0);
      return hit ? hit[1] : false;
    },
    name,
    { timeout, polling: 20 },
  );
  return handle.jsonValue();
}

/** Chromium with an on-disk profile (as a real device has), its one page watching paints. */
async function launchDevice() {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1024, height: 768 },
  });
  await context.addInitScript(paintWatch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login form, then opens the classes list. */
async function openClasses(page, url) {
  await page.goto(`${url}/login`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/homepage$/);
  await page.goto(`${url}/classes`);
}

const topBarSays = (page) => page.getByTestId('sync-status').textContent();

async function waitForTopBar(page, word, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await topBarSays(page).catch(() => null)) === word) return true;
    await sleep(100);
  }
  return false;
}

/**
 * The page's API requests as Chrome's network events tell them: each with its path, start and
 * end (null while open, as a stream stays), and the bytes received (response headers, then each
 * piece of the body) with their arrival times.
 */
async function recordApiRequests(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  const arrive = (id, bytes) => {
    const r = requests.get(id);
    if (!r || !(bytes > 0)) return;
    r.arrivals.push({ at: Date.now(), bytes });
    r.received += bytes;
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    // A new document ends its predecessor's requests (Chrome tells nothing more of them).
    if (e.type === 'Document')
      for (const r of requests.values()) if (r.end === null && r.loader !== e.loaderId) r.end = Date.now();
    const { pathname } = new URL(e.request.url);
    if (pathname.startsWith('/api/'))
      requests.set(e.requestId, {
        path: pathname,
        loader: e.loaderId,
        start: Date.now(),
        end: null,
        arrivals: [],
        received: 0,
      });
  });
  cdp.on('Network.responseReceived', (e) => arrive(e.requestId, e.response.encodedDataLength));
  cdp.on('Network.dataReceived', (e) => arrive(e.requestId, e.encodedDataLength));
  const finished = (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    // The total counts what the pieces did not (compressed bodies come in fewer events).
    if (e.encodedDataLength) arrive(e.requestId, e.encodedDataLength - r.received);
    r.end = Date.now();
  };
  cdp.on('Network.loadingFinished', finished);
  cdp.on('Network.loadingFailed', finished);
  return () => [...requests.values()];
}

const isStream = (r) => r.path.endsWith('/sync/events');

// ---------------------------------------------------------------------------------------------
// 1. Commit on one process -> painted on a device streaming from another.

/** live_streams_open of each process (local clients may read /metrics). */
async function streamsOpen(procs) {
  return Promise.all(
    procs.map(async (p) => {
      const text = await (await fetch(`${p.url}/metrics`)).text();
      return Number(/^live_streams_open (\d+)/m.exec(text)?.[1] ?? 0);
    }),
  );
}

/** Waits until haproxy reaches every process (/healthz names each one's pid). */
async function waitForAllUp(url, count) {
  const until = Date.now() + 60_000;
  for (;;) {
    const pids = new Set();
    for (let i = 0; i < count * 2; i++) {
      const res = await fetch(`${url}/healthz`).catch(() => null);
      if (res?.status === 200) pids.add((await res.json()).pid);
    }
    if (pids.size === count) return;
    if (Date.now() > until) throw new Error(`haproxy did not reach ${count} processes within 60 s`);
    await sleep(200);
  }
}

async function startCluster(pgCluster, name) {
  const admin = new pg.Client({ connectionString: pgCluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  const env = {
    DATABASE_URL: pgCluster.url.replace(/\/postgres$/, `/${name}`),
    DATA_DIR: dataDir,
    TRUST_PROXY: 'loopback',
  };
  const procs = [];
  let haproxy;
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await haproxy?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // One first, so the migrations run once, then the others.
    procs.push(await startServer(ROOT, env));
    procs.push(...(await Promise.all([startServer(ROOT, env), startServer(ROOT, env)])));
    await Promise.all(procs.map((p) => waitFor200(`${p.url}/readyz`)));
    haproxy = await startHaproxy({ port: await freePort(), servers: procs.map((p) => p.port) });
    await waitForAllUp(haproxy.url, procs.length);
  } catch (err) {
    await stop();
    throw err;
  }
  return { procs, url: haproxy.url, stop };
}

/** The processes without the device's stream, once exactly one process holds one. */
async function othersThanStream(procs) {
  let last = [];
  // A stream the device closed (the page it left) is seen closed behind haproxy only at its next
  // write (an event or the keep-alive within 25 s): wait for that.
  for (let i = 0; i < 600; i++) {
    const open = await streamsOpen(procs);
    if (open.reduce((a, b) => a + b, 0) === 1) return procs.filter((_, j) => open[j] === 0);
    await sleep(100);
    last = open;
  }
  console.log(`streams open per process: ${last.join(', ')}`);
  return null;
}

async function paintBench(pgCluster) {
  const cluster = await startCluster(pgCluster, `live_paint_${process.pid}`);
  const device = await launchDevice();
  const problems = [];
  try {
    const cookie = await signIn(cluster.procs[0].url);
    const nameOf = (i) => `Live ${TOKEN} ${String(i).padStart(3, '0')}`;
    const added = await post(cluster.procs[0].url, cookie, `${CLASSES}/addclasses.php`, {
      className: nameOf(0),
    });
    const { page } = device;
    const requests = await recordApiRequests(device.context, page);
    await openClasses(page, cluster.url);
    if (!(await waitForTopBar(page, 'Live', 60_000))) throw new Error('The top bar never said Live');
    await paintedAt(page, nameOf(0), 60_000);

    const latencies = [];
    const replies = [];
    const heard = [];
    let elsewhere = 0;
    for (let i = 1; i <= CHANGES; i++) {
      const others = await othersThanStream(cluster.procs);
      const writer = others ? others[i % others.length] : cluster.procs[i % cluster.procs.length];
      if (others) elsewhere++;
      const sent = Date.now();
      await post(writer.url, cookie, `${CLASSES}/updateclasses.php`, {
        class_id: added.class_id,
        className: nameOf(i),
        sortOrder: 0,
      });
      replies.push(Date.now() - sent);
      const painted = await paintedAt(page, nameOf(i), 60_000).catch(() => null);
      if (painted === null) {
        problems.push(`change ${i} not painted within 60 s`);
        continue;
      }
      latencies.push(painted - sent);
      const event = requests()
        .filter(isStream)
        .flatMap((r) => r.arrivals.filter((a) => a.at >= sent).map((a) => a.at));
      if (event.length) heard.push(Math.min(...event) - sent);
      // The device's round ends before the next change.
      await sleep(300);
    }
    console.log(
      `${CHANGES} renames, each sent to a process other than the one holding the device's stream: ${elsewhere} of ${CHANGES}` +
        ` (found from each process's live_streams_open)`,
    );
    console.log(`write sent -> its reply:            ${spread(replies)}`);
    if (heard.length)
      console.log(`write sent -> the event at the device: ${spread(heard)} (Chrome's network events)`);
    if (latencies.length) console.log(`write sent -> painted on the device: ${spread(latencies)}`);
    console.log(`the top bar at the end: ${await topBarSays(page)}`);
  } finally {
    await device.close();
    await cluster.stop();
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// 2. Requests and bytes per sync round, this build beside the release before the live stream.

/** Resolves once no request but a stream has run for `quietMs`. */
async function quiet(all, quietMs, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const others = all().filter((r) => !isStream(r));
    const busy = others.some((r) => r.end === null);
    const last = Math.max(0, ...others.map((r) => r.end ?? r.start));
    if (!busy && Date.now() - last >= quietMs) return;
    await sleep(100);
  }
}

/** Requests active in [from, to] (one open before counts once) and the bytes that arrived then. */
function tally(requests, from, to) {
  const active = requests.filter((r) => r.start <= to && (r.end === null || r.end >= from));
  const bytes = active.reduce(
    (sum, r) => sum + r.arrivals.filter((a) => a.at >= from && a.at <= to).reduce((s, a) => s + a.bytes, 0),
    0,
  );
  const byPath = new Map();
  for (const r of active) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
  return { count: active.length, bytes, byPath };
}

/**
 * The round that brought a change: the requests started after it was sent, grouped into bursts
 * (a gap of a second between one's end and the next's start), the last burst begun before the
 * change was painted; with what the stream received meanwhile (its event).
 */
function roundOf(requests, sent, painted) {
  const after = requests.filter((r) => !isStream(r) && r.start >= sent).sort((a, b) => a.start - b.start);
  let burst = [];
  let end = 0;
  for (const r of after) {
    if (r.start > painted) break;
    if (burst.length && r.start > end + 1000) burst = [];
    burst.push(r);
    end = Math.max(end, r.end ?? r.start);
  }
  for (const r of after) if (r.start > painted && r.start <= end + 1000 && !burst.includes(r)) burst.push(r);
  end = Math.max(end, ...burst.map((r) => r.end ?? r.start));
  const streams = requests.filter(isStream);
  const t = tally([...burst, ...streams], sent, end);
  const polled = burst.length ? burst[0].start - sent : 0;
  return { ...t, count: burst.length, events: streams.length ? 1 : 0, polled };
}

async function roundsOf(label, dir) {
  const dataDir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  const server = await startServer(dir, { DATA_DIR: dataDir });
  const device = await launchDevice();
  try {
    const cookie = await signIn(server.url);
    await post(server.url, cookie, `${CLASSES}/addclasses.php`, { className: `Before ${TOKEN}` });
    const requests = await recordApiRequests(device.context, device.page);
    await openClasses(device.page, server.url);
    await paintedAt(device.page, `Before ${TOKEN}`, 60_000);
    await waitForTopBar(device.page, 'Live', 15_000);
    await quiet(requests, 5000);
    const word = await topBarSays(device.page);

    const idleFrom = Date.now();
    await sleep(IDLE_S * 1000);
    const idle = tally(requests(), idleFrom, Date.now());

    const name = `Elsewhere ${TOKEN}`;
    const sent = Date.now();
    await post(server.url, cookie, `${CLASSES}/addclasses.php`, { className: name });
    const painted = await paintedAt(device.page, name, 90_000);
    await quiet(requests, 3000);
    const round = roundOf(requests(), sent, painted);
    return { label, word, idle, round, paintMs: painted - sent };
  } finally {
    await device.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The release before the live stream, built once in a temp folder (bench/baseline.mjs): the
 * commit before the one that added server/live/events-route.ts. Returns its folder and commit,
 * or why not.
 */
function prepareBefore() {
  const given = process.env.BENCH_LIVE_BEFORE;
  if (given)
    return existsSync(join(given, 'dist/index.html')) && existsSync(join(given, 'dist-server/index.js'))
      ? { dir: resolve(given), commit: given }
      : { why: `${given} has no dist/ and dist-server/` };
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const added = git('log', '--diff-filter=A', '--format=%H', '--', 'server/live/events-route.ts').split(
      '\n',
    );
    return prepareBuildOf(git('rev-parse', `${added.at(-1)}^`));
  } catch (err) {
    return { why: `no git history to find it in (${err.message.split('\n')[0]})` };
  }
}

const kb = (bytes) => (bytes < 1024 ? `${Math.round(bytes)} B` : `${(bytes / 1024).toFixed(1)} KB`);
const paths = (byPath) =>
  [...byPath]
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${n} ${p.replace(/^\/api\//, '')}`)
    .join(', ');

async function roundsBench() {
  const before = prepareBefore();
  const builds = [];
  if (before.dir) builds.push({ label: `before (${before.commit.slice(0, 7)})`, dir: before.dir });
  else console.log(`The release before the live stream: skipped, ${before.why}`);
  builds.push({ label: 'this build', dir: ROOT });
  const results = [];
  for (const b of builds) results.push(await roundsOf(b.label, b.dir));

  const perMin = (v) => (v / (IDLE_S / 60)).toFixed(1);
  console.log(`One device on the classes list, one server process on PGlite; API requests only.\n`);
  console.log(`| | ${results.map((r) => r.label).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---').join('|')}|`);
  const row = (what, f) => console.log(`| ${what} | ${results.map(f).join(' | ')} |`);
  row('top bar when settled', (r) => r.word);
  row(`idle ${IDLE_S} s: requests per minute (a stream counts once)`, (r) => perMin(r.idle.count));
  row(`idle ${IDLE_S} s: bytes received per minute`, (r) => kb(r.idle.bytes / (IDLE_S / 60)));
  row('one change elsewhere: requests of the round that brought it', (r) =>
    r.round.events ? `${r.round.count} + 1 event on the stream` : String(r.round.count),
  );
  row('one change elsewhere: bytes of that round', (r) => kb(r.round.bytes));
  row(
    'one change elsewhere: sent -> round begins / -> painted',
    (r) => `${ms(r.round.polled)} / ${ms(r.paintMs)}`,
  );
  for (const r of results) {
    console.log(`${r.label}, idle, by path: ${paths(r.idle.byPath)}`);
    console.log(`${r.label}, the change's round, by path: ${paths(r.round.byPath)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. 1,000 streams on one process.

/** Sessions as a sign-in makes them (server/auth/sessions.ts), inserted directly; their tokens. */
async function insertSessions(databaseUrl, count) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [{ id }] = (await db.query('SELECT id FROM admins WHERE username = $1', [ADMIN.username])).rows;
    const tokens = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
    await db.query(
      `INSERT INTO sessions (token_hash, admin_id, created_at, last_seen_at, idle_seconds, expires_at)
       SELECT h, $2, now(), now(), 7200, now() + interval '12 hours' FROM unnest($1::text[]) AS h`,
      [tokens.map((t) => createHash('sha256').update(t).digest('hex')), id],
    );
    return tokens;
  } finally {
    await db.end();
  }
}

/** A raw SSE connection; `events` gets each event's arrival time. Resolves once the first came. */
function openStream(url, cookie, agent) {
  return new Promise((done, fail) => {
    const stream = { events: [], comments: 0, ended: false, req: null };
    stream.req = http.get(
      `${url}/api/sync/events`,
      { agent, headers: { Cookie: cookie, Accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return fail(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk) => {
          const at = Date.now();
          text += chunk;
          let end = text.indexOf('\n\n');
          while (end >= 0) {
            if (text.startsWith(':')) stream.comments++;
            else stream.events.push(at);
            text = text.slice(end + 2);
            end = text.indexOf('\n\n');
          }
          if (stream.events.length === 1) done(stream);
        });
        res.on('close', () => {
          stream.ended = true;
        });
      },
    );
    stream.req.on('error', fail);
  });
}

async function streamsBench(pgCluster) {
  const name = `live_streams_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgCluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = pgCluster.url.replace(/\/postgres$/, `/${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  const server = await startServer(ROOT, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams = [];
  const problems = [];
  try {
    const cookie = await signIn(server.url);
    await post(server.url, cookie, `${CLASSES}/addclasses.php`, { className: `Streams ${TOKEN} 0` });
    const tokens = await insertSessions(databaseUrl, Math.ceil(STREAMS / STREAMS_PER_SESSION));
    await sleep(5000);
    const rssBefore = rssKb(server.pid);

    const opening = Date.now();
    for (let i = 0; i < STREAMS; i += 100)
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, STREAMS - i) }, (_, j) =>
            openStream(server.url, `sid=${tokens[Math.floor((i + j) / STREAMS_PER_SESSION)]}`, agent),
          ),
        )),
      );
    const openedMs = Date.now() - opening;
    const [open] = await streamsOpen([server]);
    await sleep(5000);
    const rssAfter = rssKb(server.pid);

    const ticks = cpuTicks(server.pid);
    await sleep(CPU_IDLE_S * 1000);
    const cpuS = (cpuTicks(server.pid) - ticks) / TICKS_PER_S;
    const alive = streams.filter((s) => !s.ended).length;

    const sent = Date.now();
    await post(server.url, cookie, `${CLASSES}/addclasses.php`, { className: `Streams ${TOKEN} 1` });
    const replied = Date.now() - sent;
    const until = Date.now() + 10_000;
    while (Date.now() < until && streams.some((s) => !s.events.some((at) => at >= sent))) await sleep(20);
    const reached = streams.map((s) => s.events.find((at) => at >= sent)).filter((at) => at !== undefined);
    const delays = reached.map((at) => at - sent).sort((a, b) => a - b);

    console.log(
      `One process on PostgreSQL; ${STREAMS} streams on ${tokens.length} sessions opened in ${ms(openedMs)}; live_streams_open ${open}.`,
    );
    console.log(
      `server RSS: ${mib(rssBefore)} before, ${mib(rssAfter)} with the streams: +${mib(rssAfter - rssBefore)} (budget: at most +100 MiB)`,
    );
    console.log(
      `server CPU over ${CPU_IDLE_S} s idle with the streams: ${cpuS.toFixed(2)} s = ${((cpuS / CPU_IDLE_S) * 100).toFixed(1)}% of one core` +
        ` (budget: at most 5%; keep-alive comments heard: ${streams.reduce((s, x) => s + x.comments, 0)}; streams still open: ${alive})`,
    );
    console.log(
      `one add -> its reply ${ms(replied)}; -> the event on every stream: ${delays.length} of ${STREAMS} reached` +
        (delays.length
          ? `, p50 ${ms(quantile(delays, 0.5))}, max ${ms(delays.at(-1))} (budget: all within 1 s)`
          : ''),
    );
    if (delays.length < STREAMS) problems.push(`${STREAMS - delays.length} streams missed the event`);
  } finally {
    for (const s of streams) s.req.destroy();
    agent.destroy();
    await server.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

needBuilt('dist/index.html', 'dist-server/index.js');
const problems = [];
let pgCluster;
try {
  if (ONLY.includes('paint') || ONLY.includes('streams'))
    pgCluster = await startThrowawayPostgres(['max_connections=200']);
  if (ONLY.includes('paint')) {
    console.log(
      '-- A commit on one process, painted on a device streaming from another (3 processes, haproxy)',
    );
    problems.push(...(await paintBench(pgCluster)));
  }
  if (ONLY.includes('rounds')) {
    console.log('\n-- Requests and bytes per sync round, beside the release before the live stream');
    await roundsBench();
  }
  if (ONLY.includes('streams')) {
    console.log(`\n-- ${STREAMS} streams on one process`);
    problems.push(...(await streamsBench(pgCluster)));
  }
} finally {
  pgCluster?.stop();
}
for (const p of problems) console.log(`FAIL ${p}`);
process.exit(problems.length ? 1 : 0);
