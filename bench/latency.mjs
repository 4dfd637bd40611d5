/**
 * Latency of the app's page while clients send the largest bodies each route allows (no body,
 * however large or anonymous, may hold the event loop; target: GET / under 50 ms).
 *
 * One reference server (`node dist-server/index.js`, serving dist/). The load runs in a worker
 * thread of this process, the probe in its main thread: GET / (index.html) one after another,
 * 10 ms apart, over a keep-alive connection, timing each. Per scenario and run, the load runs
 * for BENCH_LATENCY_SECONDS (default 4) with BENCH_LATENCY_SENDERS senders (default 1), each
 * sending its next body as soon as the previous reply came:
 *
 *   idle                 no load (the floor)
 *   sink 12 MB (control) 12 MB bodies to a bare sink in another process (what the machine's
 *                        contention alone costs the probe: on few shared cores, not nothing)
 *   anon login 8 KB      login with a body at its limit (8 KB of JSON, wrong password)
 *   anon login 10 MB     login with a 10 MB body (refused by its length: 413)
 *   anon API 12 MB       an API write without a session, 12 MB (401)
 *   multipart 10 MB      Add Chapter with a 10 MB image, signed in (stored)
 *   multipart 12 MB      Add Chapter with an 11.9 MB image (parsed, refused: over 10 MB)
 *   JSON 2 MB string     an add at the JSON limit, one long text field (refused: too long)
 *   JSON 2 MB values     an add at the JSON limit holding the most values allowed (refused)
 *   batch 2 MB           100 items at the JSON limit, ~1,000 values each (each refused)
 *   JSON 12 MB           an add over the JSON limit (refused by its length: 413)
 *
 * The signed-in writes carry an Idempotency-Key, as the app's always do. Prints, per scenario,
 * min / median / p95 / max of the probe over all runs, the worst run's p95, and the load's
 * replies; never exits non-zero on timings. Build first: `npm run build`.
 * Options: BENCH_LATENCY_RUNS (3), BENCH_LATENCY_SECONDS (4), BENCH_LATENCY_ONLY (names,
 * comma-separated, e.g. "idle,batch 2 MB"), BENCH_SERVER_PROF=<dir> (the server runs with
 * --cpu-prof; `node bench/profile-top.mjs <dir>` lists where its time went).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { needBuilt } from './built.mjs';
import { ADMIN, serverSignIn, startBenchServer } from './server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;
const API = '/api';
const CHAPTER_ADD = `${API}/Masterfilter/Chapters/addchapters.php`;
const CLASS_ADD = `${API}/Masterfilter/Classes/addclasses.php`;
const LOGIN = `${API}/Admin_access/login.php`;
const BATCH = `${API}/sync/batch`;

// ---------------------------------------------------------------------------------------------
// Bodies

/** A JSON list of about `count` small values (rows of 1,000: within the width limit). */
function manyValues(count) {
  const row = `[${Array(1_000).fill('0').join(',')}]`;
  return `[${Array(Math.max(1, Math.floor(count / 1_000)))
    .fill(row)
    .join(',')}]`;
}

/** A JSON object text of `bytes` bytes: `fields` plus a long string filling the rest. */
function filled(fields, bytes) {
  const base = JSON.stringify({ ...fields, pad: '' });
  return `${base.slice(0, -2)}${'p'.repeat(bytes - base.length)}"}`;
}

function multipart(fields, file) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="page.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
    );
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size) => {
  const bytes = randomBytes(size);
  PNG.copy(bytes);
  return bytes;
};

/** The requests of each scenario: `{ path, type, body, key, cookie }`, sent in turn. */
function scenarios(cookie, book) {
  const json = (path, text, signedIn = true, keyed = true) => ({
    path,
    type: 'application/json',
    body: Buffer.from(text),
    keyed,
    cookie: signedIn ? cookie : undefined,
  });
  const chapterFields = {
    selectedClass: book.class_id,
    selectedSubject: book.subject_id,
    selectedSeries: book.series_id,
    selectedBook: book.book_id,
    selectedSection: '',
    selectedUnit: '',
    chapterName: 'Bench chapter',
    chapterDescription: 'A page of the benchmark',
  };
  const chapter = (size) => {
    const { type, body } = multipart(chapterFields, { name: 'chapterImage', bytes: png(size) });
    return { path: CHAPTER_ADD, type, body, keyed: true, cookie };
  };
  // The most the JSON limits allow (server/http/body.ts): 2 MB and 100,000 values.
  const valuesBody = filled({ x: JSON.parse(manyValues(98_000)) }, 2 * MB - 64);
  // 100 items, ~1,000 values each, filled to just under 2 MB in all (keys grow by a few digits).
  const item = (i, bytes) =>
    `{"method":"POST","path":"Masterfilter/Classes/addclasses.php","key":"bench-${String(i).padStart(3, '0')}-KEY","json":${filled({ x: JSON.parse(manyValues(980)) }, bytes)}}`;
  const itemBytes = Math.floor((2 * MB - 8 * 1024) / 100) - (item(0, 8_000).length - 8_000) - 1;
  const batch = `{"requests":[${Array.from({ length: 100 }, (_, i) => item(i, itemBytes)).join(',')}]}`;
  const loginPad = (() => {
    const base = JSON.stringify({ username: 'nobody', password: 'wrong', pad: [] });
    const room = 8 * 1024 - base.length;
    return JSON.stringify({
      username: 'nobody',
      password: 'wrong',
      pad: Array(Math.floor(room / 2)).fill(0),
    });
  })();
  return {
    idle: [],
    // Control: the same 12 MB bodies to a bare sink in another process, GET / to our server:
    // what the machine's contention alone costs the probe.
    'sink 12 MB (control)': [
      { ...json(CLASS_ADD, `{"a":"${'x'.repeat(12 * MB - 16)}"}`, false, false), sink: true },
    ],
    'anon login 8 KB': [json(LOGIN, loginPad, false, false)],
    'anon login 10 MB': [json(LOGIN, `{"username":"a","pad":"${'x'.repeat(10 * MB)}"}`, false, false)],
    'anon API 12 MB': [json(CLASS_ADD, `{"className":"${'x'.repeat(12 * MB - 64)}"}`, false, false)],
    'multipart 10 MB': [chapter(10 * MB - 4096)],
    'multipart 12 MB': [chapter(12 * MB - 4096)],
    'JSON 2 MB string': [json(CLASS_ADD, filled({ className: 'x' }, 2 * MB - 16))],
    'JSON 2 MB values': [json(CLASS_ADD, valuesBody)],
    'batch 2 MB': [json(BATCH, batch)],
    'JSON 12 MB': [json(CLASS_ADD, `{"className":"${'x'.repeat(12 * MB - 64)}"}`)],
  };
}

// ---------------------------------------------------------------------------------------------
// The load (worker thread)

async function runLoad({ port, sinkPort, requests, senders }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: senders });
  let stop = false;
  let n = 0;
  const statuses = {};
  const samples = {};
  parentPort.on('message', (m) => {
    if (m === 'stop') stop = true;
  });
  const sendOne = (r) =>
    new Promise((done) => {
      // Batch items need keys of their own each time, or they are answered from the store.
      const body =
        r.path === BATCH ? Buffer.from(Buffer.from(r.body).toString().replaceAll('KEY', String(n))) : r.body;
      const headers = { 'Content-Type': r.type, 'Content-Length': body.length };
      if (r.cookie) headers.Cookie = r.cookie;
      if (r.keyed) headers['Idempotency-Key'] = `bench-${process.pid}-${n}-${randomBytes(4).toString('hex')}`;
      n++;
      const req = http.request(
        { host: '127.0.0.1', port: r.sink ? sinkPort : port, method: 'POST', path: r.path, headers, agent },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => {
            if (text.length < 200) text += d;
          });
          res.on('end', () => {
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            samples[res.statusCode] ??= text.slice(0, 120);
            done();
          });
        },
      );
      req.on('error', (e) => {
        statuses[e.code ?? 'error'] = (statuses[e.code ?? 'error'] ?? 0) + 1;
        done();
      });
      req.end(body);
    });
  const sender = async (offset) => {
    for (let i = offset; !stop && requests.length > 0; i++) await sendOne(requests[i % requests.length]);
  };
  await Promise.all(Array.from({ length: senders }, (_, i) => sender(i)));
  agent.destroy();
  parentPort.postMessage({ statuses, samples });
}

if (!isMainThread) {
  await runLoad(workerData);
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// The probe and the report (main thread)

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function probe(port, ms) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const start = process.hrtime.bigint();
    await new Promise((done, fail) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', agent, headers: { 'Accept-Encoding': 'br' } }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? done() : fail(new Error(`GET / answered ${res.statusCode}`)),
          );
        })
        .on('error', fail);
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    await new Promise((r) => setTimeout(r, 10));
  }
  agent.destroy();
  return times;
}

async function main() {
  needBuilt('dist/index.html');
  const runs = Number(process.env.BENCH_LATENCY_RUNS || 3);
  const senders = Number(process.env.BENCH_LATENCY_SENDERS || 1);
  const seconds = Number(process.env.BENCH_LATENCY_SECONDS || 4);
  const only = process.env.BENCH_LATENCY_ONLY?.split(',').map((s) => s.trim());
  const sink = await startSink();
  const server = await startBenchServer({
    staticDir: join(ROOT, 'dist'),
    cpuProfileDir: process.env.BENCH_SERVER_PROF || undefined,
  });
  try {
    const cookie = await serverSignIn(server.apiRoot);
    const got = await fetch(`${server.apiRoot}/Masterfilter/Book/getBook.php?book_id=1`, {
      headers: { Cookie: cookie },
    });
    const { book } = await got.json();
    const all = Object.entries(scenarios(cookie, book)).filter(([name]) => !only || only.includes(name));
    console.log(
      `GET / latency while the load runs (${runs} runs of ${seconds} s per scenario, ${senders} sender(s); ms; ${ADMIN.username} signed in for the signed-in loads)`,
    );
    // Runs go round the scenarios (run 1 of each, then run 2 of each ...), so that a change in
    // what else the machine runs falls on every scenario alike.
    const acc = new Map(all.map(([name]) => [name, { times: [], perRun: [], statuses: {}, samples: {} }]));
    for (let run = 0; run < runs; run++) {
      for (const [name, requests] of all) {
        const a = acc.get(name);
        const worker = new Worker(new URL(import.meta.url), {
          workerData: { port: server.port, sinkPort: sink.port, requests, senders },
        });
        const finished = new Promise((done) => worker.once('message', done));
        // Let the load start before probing.
        await new Promise((r) => setTimeout(r, 300));
        const t = await probe(server.port, seconds * 1000);
        worker.postMessage('stop');
        const result = await finished;
        await worker.terminate();
        a.samples = { ...result.samples, ...a.samples };
        for (const [status, count] of Object.entries(result.statuses))
          a.statuses[status] = (a.statuses[status] ?? 0) + count;
        a.times.push(...t);
        a.perRun.push(
          percentile(
            [...t].sort((x, y) => x - y),
            95,
          ),
        );
      }
    }
    const rows = [];
    const fmt = (x) => x.toFixed(1).padStart(7);
    for (const [name, { times, perRun, statuses, samples }] of acc) {
      const sorted = [...times].sort((x, y) => x - y);
      rows.push({ name, sorted });
      console.log(
        `${name.padEnd(20)} min ${fmt(sorted[0])}  median ${fmt(percentile(sorted, 50))}  p95 ${fmt(percentile(sorted, 95))}  max ${fmt(sorted.at(-1))}  p95 by run ${perRun.map((p) => p.toFixed(0)).join('/')}  (${sorted.length} probes; load replies ${JSON.stringify(statuses)})`,
      );
      if (process.env.BENCH_LATENCY_VERBOSE) console.log(`    first replies: ${JSON.stringify(samples)}`);
    }
    console.log(
      `Machine load average (1, 5, 15 min) at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
    const over = rows.filter((r) => percentile(r.sorted, 95) >= 50);
    console.log(
      over.length === 0
        ? 'Target (GET / under 50 ms at p95 under every load): met.'
        : `Target (GET / under 50 ms at p95): NOT met for ${over.map((r) => r.name).join(', ')}.`,
    );
  } finally {
    await server.close();
    sink.close();
  }
}

/** A bare HTTP server in a child process that reads and discards every body (the control). */
async function startSink() {
  const { spawn } = await import('node:child_process');
  const code = `require('http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{}')); })
    .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((done) => child.stdout.once('data', (d) => done(Number(String(d).trim()))));
  return { port, close: () => child.kill() };
}
