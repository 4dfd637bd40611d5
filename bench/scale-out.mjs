/**
 * Scale-out benchmark: the server as 1, 2 and 3 processes behind haproxy
 * (deploy/haproxy.cfg) on one PostgreSQL, beside one process without the balancer, in the
 * same run. For each:
 *
 * - drain: four devices at once, each with 1,000 class adds queued offline, replay until their
 *   outboxes are empty. Each device is a worker thread running the app's real sync modules
 *   (bench/scale-out-device.ts: Dexie on fake-indexeddb, mutate, createApi, signIn, replay):
 *   the page of bench/drain.mjs without Chromium, which four times over would take most of a
 *   small machine. Figures: changes/s (4,000 over the wall time from the common start to the
 *   last device done) and the p95 of the devices' HTTP requests (mostly batches of 100).
 *   Checked: every change on the server once (exit status 1 otherwise, never on timings).
 * - list read: 100 clients at once, each sending GET fetchclasses.php (first page, 10 rows of
 *   the 4,000 classes) as soon as its previous one was answered, for BENCH_SCALE_READ_SECONDS
 *   (5): requests/s and p95 latency.
 *
 * Beside each row: the machine's CPU busy share over the measurement (of all its cores) and
 * the CPU time the server processes took, to say what limits it.
 *
 * A throwaway PostgreSQL cluster (scripts/pg-cluster.mjs), a fresh database per run. Options:
 * BENCH_SCALE_RUNS (3), BENCH_SCALE_ENTRIES (1000 per device), BENCH_SCALE_READ_SECONDS (5),
 * BENCH_SCALE_ONLY (labels: direct-1,haproxy-1,haproxy-2,haproxy-3), BENCH_SCALE_LIMIT_S (600: a
 * device that has not queued or drained by then fails its run, which is reported, and the
 * bench goes on).
 * Run: `npm run bench`, or `node bench/scale-out.mjs` after `npm run build:server`.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { build } from 'vite';
import { freePort, startHaproxy, startProcess, waitFor200 } from '../scripts/cluster-lib.mjs';
import { startThrowawayPostgres } from '../scripts/pg-cluster.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_SCALE_RUNS || 3);
const ENTRIES = Number(process.env.BENCH_SCALE_ENTRIES || 1000);
const DEVICES = 4;
const READERS = 100;
const READ_SECONDS = Number(process.env.BENCH_SCALE_READ_SECONDS || 5);
/** How long a device may take to queue, or to drain, before the run is given up. */
const LIMIT_S = Number(process.env.BENCH_SCALE_LIMIT_S || 600);
const CONFIGS = [
  { label: 'direct-1', name: '1 process, no balancer', processes: 1, balancer: false },
  { label: 'haproxy-1', name: '1 process behind haproxy', processes: 1, balancer: true },
  { label: 'haproxy-2', name: '2 processes behind haproxy', processes: 2, balancer: true },
  { label: 'haproxy-3', name: '3 processes behind haproxy', processes: 3, balancer: true },
].filter((c) => !process.env.BENCH_SCALE_ONLY || process.env.BENCH_SCALE_ONLY.split(',').includes(c.label));

const OUT = join(ROOT, 'dist-bench-node');
await build({
  configFile: false,
  root: ROOT,
  logLevel: 'warn',
  build: {
    ssr: join(ROOT, 'bench/scale-out-device.ts'),
    outDir: OUT,
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: { output: { format: 'es', entryFileNames: 'device.mjs' } },
  },
  ssr: { target: 'node' },
});

/** CPU ticks of the whole machine (busy, total) and of a process (user + system). */
const machineTicks = () => {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - (f[4] ?? 0), total };
};
const processTicks = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};
const TICKS_PER_S = 100;

/**
 * A device's next message, in order. A worker that fails or stops without its message (its
 * event loop emptied: something awaited that nothing will settle) answers with an error.
 */
function deviceMessages(worker, index) {
  const queue = [];
  const waiting = [];
  const post = (m) => (waiting.length ? waiting.shift()(m) : queue.push(m));
  worker.on('message', post);
  worker.on('error', (error) => post({ error }));
  worker.on('exit', (code) =>
    post({ error: new Error(`device ${index} stopped (exit code ${code}) before answering`) }),
  );
  return () => new Promise((done) => (queue.length ? done(queue.shift()) : waiting.push(done)));
}

/** Every device's next message, or an error naming the devices that did not answer in time. */
async function allAnswered(messages, what) {
  const answered = new Set();
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const silent = messages.map((_, i) => i).filter((i) => !answered.has(i));
      reject(new Error(`device ${silent.join(', ')} had not ${what} after ${LIMIT_S} s`));
    }, LIMIT_S * 1000);
  });
  const all = Promise.all(
    messages.map(async (next, i) => {
      const m = await next();
      answered.add(i);
      if (m.error) throw new Error(`${m.error.message}, waiting until it ${what}`, { cause: m.error });
      return m;
    }),
  );
  try {
    return await Promise.race([all, limit]);
  } finally {
    clearTimeout(timer);
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(cluster, procs) {
  const sample = () => ({ m: machineTicks(), p: procs.reduce((s, p) => s + processTicks(p.pid), 0) });
  const usage = (a, b) => ({
    busy: (b.m.busy - a.m.busy) / (b.m.total - a.m.total),
    serverCpuS: (b.p - a.p) / TICKS_PER_S,
  });

  // Drain: four devices queue offline, then replay at the same moment.
  const workers = Array.from(
    { length: DEVICES },
    (_, i) =>
      new Worker(join(OUT, 'device.mjs'), {
        workerData: { apiRoot: cluster.apiRoot, entries: ENTRIES, tag: `d${i}` },
      }),
  );
  const messages = workers.map(deviceMessages);
  let results;
  let wallMs;
  let drainUse;
  try {
    await allAnswered(messages, 'queued its changes');
    const before = sample();
    const started = performance.now();
    for (const w of workers) w.postMessage('go');
    results = await allAnswered(messages, 'drained its outbox');
    wallMs = performance.now() - started;
    drainUse = usage(before, sample());
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const latencies = results.flatMap((r) => r.requestMs).sort((a, b) => a - b);

  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  const { rows } = await db.query(
    'SELECT count(*)::int AS n, count(DISTINCT class_name)::int AS d FROM classes',
  );
  await db.end();
  const problems = [];
  const expected = DEVICES * ENTRIES;
  if (rows[0].n !== expected || rows[0].d !== expected)
    problems.push(`${rows[0].n} classes (${rows[0].d} distinct) for ${expected} changes`);
  for (const [i, r] of results.entries())
    if (r.left > 0 || r.failed > 0)
      problems.push(
        `device ${i}'s outbox did not drain: ${r.sent} sent, left ${JSON.stringify(r.leftByStatus)}${r.firstError ? `, first error: ${r.firstError}` : ''}`,
      );

  // List read: 100 clients at once, one session (a sign-in hashes a password: not measured).
  const login = await fetch(`${cluster.apiRoot}/Admin_access/login.php`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const readMs = [];
  let errors = 0;
  const readBefore = sample();
  const until = performance.now() + READ_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(`${cluster.apiRoot}/Masterfilter/Classes/fetchclasses.php?page=1&limit=10`, {
          headers: { Cookie: cookie },
        }).catch(() => null);
        if (res) await res.arrayBuffer();
        if (res?.status === 200) readMs.push(performance.now() - t);
        else errors++;
      }
    }),
  );
  const readUse = usage(readBefore, sample());
  readMs.sort((a, b) => a - b);
  if (errors > 0) problems.push(`${errors} list reads failed`);
  return {
    changesPerS: expected / (wallMs / 1000),
    drainP95: quantile(latencies, 0.95),
    drainBusy: drainUse.busy,
    drainServerCpu: drainUse.serverCpuS,
    readsPerS: readMs.length / READ_SECONDS,
    readP95: quantile(readMs, 0.95),
    readBusy: readUse.busy,
    readServerCpu: readUse.serverCpuS,
    problems,
  };
}

async function runConfig(pgCluster, config, run) {
  const name = `scale_${config.label.replace('-', '_')}_${run}_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgCluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = pgCluster.url.replace(/\/postgres$/, `/${name}`);
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(OUT, name),
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'admin123',
    DEMO_DATA: 'off',
    STATIC_DIR: join(OUT, 'no-app'),
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
  };
  const ports = await Promise.all(Array.from({ length: config.processes }, () => freePort()));
  const procs = await Promise.all(ports.map((port) => startProcess({ port, env })));
  let haproxy;
  try {
    await Promise.all(ports.map((p) => waitFor200(`http://127.0.0.1:${p}/readyz`)));
    let url = `http://127.0.0.1:${ports[0]}`;
    if (config.balancer) {
      haproxy = await startHaproxy({ port: await freePort(), servers: ports });
      url = haproxy.url;
      await waitFor200(`${url}/readyz`);
      // Every server up before measuring (haproxy's first checks).
      await new Promise((r) => setTimeout(r, 2500));
    }
    return await measure({ apiRoot: `${url}/api`, databaseUrl }, procs);
  } finally {
    await Promise.all(procs.map((p) => p.stop('SIGTERM')));
    await haproxy?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const fmt = (values, digits = 0) => {
  const s = [...values].sort((a, b) => a - b);
  const f = (v) => v.toFixed(digits);
  return `${f(s[0])} / ${f(s[Math.floor(s.length / 2)])} / ${f(s.at(-1))}`;
};

const pgCluster = process.env.BENCH_DATABASE_URL
  ? { url: process.env.BENCH_DATABASE_URL, stop() {} }
  : await startThrowawayPostgres(['max_connections=200']);
const results = new Map(CONFIGS.map((c) => [c.label, []]));
let failures = 0;
try {
  // Runs go round the configurations, so a change in what else the machine does falls on all.
  for (let run = 1; run <= RUNS; run++)
    for (const config of CONFIGS) {
      const r = await runConfig(pgCluster, config, run).catch((error) => ({ error }));
      if (r.error) {
        console.log(`run ${run} ${config.name}: FAIL ${r.error.message}`);
        failures++;
        continue;
      }
      results.get(config.label).push(r);
      console.log(
        `run ${run} ${config.name}: ${r.changesPerS.toFixed(0)} changes/s (p95 ${r.drainP95.toFixed(0)} ms), ` +
          `${r.readsPerS.toFixed(0)} reads/s (p95 ${r.readP95.toFixed(0)} ms)${r.problems.length ? ` FAIL ${r.problems.join('; ')}` : ''}`,
      );
      failures += r.problems.length;
    }
} finally {
  pgCluster.stop();
  rmSync(OUT, { recursive: true, force: true });
}

console.log(
  `\n${DEVICES} devices x ${ENTRIES} changes drained at once; ${READERS} clients reading a list for ${READ_SECONDS} s. min / median / max over ${RUNS} runs.`,
);
console.log(
  '| Setup | changes/s | drain p95 ms | CPU busy (drain) | server CPU s (drain) | list reads/s | read p95 ms | CPU busy (reads) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const config of CONFIGS) {
  const rs = results.get(config.label);
  if (rs.length === 0) {
    console.log(`| ${config.name} | no run finished |||||||`);
    continue;
  }
  const pct = (k) => fmt(rs.map((r) => r[k] * 100)).replace(/(\d+)/g, '$1%');
  console.log(
    `| ${config.name} | ${fmt(rs.map((r) => r.changesPerS))} | ${fmt(rs.map((r) => r.drainP95))} | ${pct('drainBusy')} | ${fmt(
      rs.map((r) => r.drainServerCpu),
      1,
    )} | ${fmt(rs.map((r) => r.readsPerS))} | ${fmt(rs.map((r) => r.readP95))} | ${pct('readBusy')} |`,
  );
}
console.log(`Load average now: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
process.exit(failures > 0 ? 1 : 0);
