/**
 * Server CPU per applied change, per kind of change, on PGlite: a single legacy write as the
 * original front-end sends it (`POST .../addclasses.php` with its Idempotency-Key, one after
 * another) and an item of a batch (`POST /api/sync/batch`, BATCH_ITEMS items each), for be236b9
 * and this build, run alternately (bench/baseline.mjs). The CPU is the server process's user
 * plus system time from /proc (bench/cpu.mjs) over the writes of one kind, divided by their
 * number: what each change costs the server, whatever else the machine runs. Each server
 * runs every kind and way first fresh (printed for information: its first writes pay for
 * compiling its hot paths), then BENCH_COST_WARMUP times more unmeasured, then once measured,
 * warm, as a server in service is (the class add's figure of every pass is printed too).
 *
 * Prints figures; exits 1 when a write does not succeed or the server does not hold what was
 * written (never on timings). Run after `npm run build:server` and the bench pages:
 * `node bench/write-cost.mjs`. BENCH_COST_WRITES (default 400): changes per kind and way;
 * BENCH_WRITE_RUNS (default 3): runs of each build; BENCH_COST_WARMUP (default 3): passes between
 * the fresh one and the measured one; BENCH_SERVER_PROF=<dir>: the servers run with
 * --cpu-prof and write their profiles there (bench/profile-top.mjs summarises them).
 */
import { buildsToCompare } from './baseline.mjs';
import { cpuSnapshot } from './cpu.mjs';
import { summary } from './scale-server.mjs';
import { serverSignIn, startBenchServer } from './server.mjs';

const WRITES = Number(process.env.BENCH_COST_WRITES || 400);
const RUNS = Number(process.env.BENCH_WRITE_RUNS || 3);
const WARMUP = Number(process.env.BENCH_COST_WARMUP ?? 3);
const BATCH_ITEMS = 100;
const CLASSES = 'Masterfilter/Classes';

let failures = 0;

/** A server's API, signed in, with a key counter so that every write has its own key. */
function client(apiRoot, cookie) {
  let keys = 0;
  const post = async (path, body) => {
    const res = await fetch(`${apiRoot}/${path}`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'Idempotency-Key': `k-${++keys}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const batch = async (items) => {
    const requests = items.map(([path, json]) => ({
      method: 'POST',
      path,
      key: `k-${++keys}`,
      json,
      madeAt: new Date().toISOString(),
    }));
    const reply = await post('sync/batch', { requests });
    if (!reply.body.success) throw new Error(`Batch refused: ${JSON.stringify(reply.body)}`);
    return reply.body.replies;
  };
  const get = async (path) => (await fetch(`${apiRoot}/${path}`, { headers: { Cookie: cookie } })).json();
  return { post, batch, get };
}

/** The writes of each kind, as [path, body]: `ids` are classes to edit and to delete. */
function plan(tag, subjectId, editIds, deleteIds, seriesClassIds) {
  const n = editIds.length;
  return {
    'class add': Array.from({ length: n }, (_, i) => [
      `${CLASSES}/addclasses.php`,
      { className: `Cost ${tag} add ${i}` },
    ]),
    'class edit': editIds.map((id, i) => [
      `${CLASSES}/updateclasses.php`,
      { class_id: id, className: `Cost ${tag} edited ${i}`, sortOrder: 0 },
    ]),
    'class delete': deleteIds.map((id) => [`${CLASSES}/deleteclasses.php`, { class_id: id }]),
    'series add': seriesClassIds.map((id, i) => [
      'Masterfilter/Series/addseries.php',
      { seriesName: `Cost ${tag} series ${i}`, selectedClass: id, selectedSubject: subjectId },
    ]),
  };
}

/** Classes to write to, made through batches before anything is measured. */
async function setupClasses(api, tag, count) {
  const adds = Array.from({ length: count }, (_, i) => [
    `${CLASSES}/addclasses.php`,
    { className: `Base ${tag} ${i}` },
  ]);
  const ids = [];
  for (let i = 0; i < adds.length; i += BATCH_ITEMS)
    for (const reply of await api.batch(adds.slice(i, i + BATCH_ITEMS)))
      ids.push(String(reply.body.class_id));
  return ids;
}

const succeeded = (reply) => reply.status === 200 && reply.body?.success === true;

/** Server CPU ms per change while `send` writes `count` changes. */
async function cpuPerChange(pid, count, send) {
  const before = cpuSnapshot(pid).server;
  const ok = await send();
  const ms = cpuSnapshot(pid).server - before;
  if (ok !== count) {
    failures += 1;
    console.error(`FAIL: ${count - ok} of ${count} writes did not succeed`);
  }
  return ms / count;
}

/**
 * Each kind alone, then each kind in batches, on classes `ids` (4 x WRITES of them): CPU ms per
 * change (`costs`), and the plans sent (`plans`, for checkHeld).
 */
async function measureWays(server, api, tag, subjectId, ids) {
  const ways = {
    single: plan(
      `${tag} single`,
      subjectId,
      ids.slice(0, WRITES),
      ids.slice(WRITES, 2 * WRITES),
      ids.slice(0, WRITES),
    ),
    batch: plan(
      `${tag} batch`,
      subjectId,
      ids.slice(2 * WRITES, 3 * WRITES),
      ids.slice(3 * WRITES, 4 * WRITES),
      ids.slice(2 * WRITES, 3 * WRITES),
    ),
  };
  const out = { single: {}, batch: {} };
  for (const [kind, writes] of Object.entries(ways.single))
    out.single[kind] = await cpuPerChange(server.pid, writes.length, async () => {
      let ok = 0;
      for (const [path, body] of writes) if (succeeded(await api.post(path, body))) ok += 1;
      return ok;
    });
  for (const [kind, writes] of Object.entries(ways.batch))
    out.batch[kind] = await cpuPerChange(server.pid, writes.length, async () => {
      let ok = 0;
      for (let i = 0; i < writes.length; i += BATCH_ITEMS)
        for (const reply of await api.batch(writes.slice(i, i + BATCH_ITEMS))) if (succeeded(reply)) ok += 1;
      return ok;
    });
  return { costs: out, plans: Object.values(ways) };
}

/**
 * One run of a build: every kind and way once on the fresh server, then WARMUP passes more,
 * then once more, measured, on the server those writes warmed. A server in service has run its
 * hot paths many times; a fresh one spends its first thousands of writes compiling them (V8
 * optimises PGlite's WebAssembly and the JavaScript as each part turns hot), which is start-up,
 * not the cost of a change. The fresh pass and every pass's class add are printed.
 */
async function runOnce(build) {
  const server = await startBenchServer({ root: build.root, cpuProfileDir: process.env.BENCH_SERVER_PROF });
  try {
    const api = client(server.apiRoot, await serverSignIn(server.apiRoot));
    const subject = await api.post('Masterfilter/Subjects/addsubjects.php', {
      subjectName: 'Cost subject',
      subjectContent: '<p>Cost</p>',
    });
    const subjectId = String(subject.body.subject_id);
    const passes = [];
    for (let pass = 0; pass < WARMUP + 2; pass++) {
      const ids = await setupClasses(api, `c${pass}`, WRITES * 4);
      passes.push(await measureWays(server, api, `p${pass}`, subjectId, ids));
    }
    // Once, after every pass: each check reads every class and series the run has written.
    await checkHeld(
      api,
      passes.flatMap((p) => p.plans),
    );
    const costs = passes.map((p) => p.costs);
    return { fresh: costs[0], warm: costs.at(-1), curve: costs.map((c) => c.single['class add']) };
  } finally {
    await server.close();
  }
}

/** The server holds every class added and edited, none deleted, and every series added. */
async function checkHeld(api, plans) {
  const classes = new Set((await api.get(`${CLASSES}/fetchclasses.php`)).classes.map((c) => c.class_name));
  const series = new Set(
    (await api.get('Masterfilter/Series/fetchseries.php')).series.map((s) => s.series_name),
  );
  for (const way of plans) {
    const missing = [
      ...way['class add'].map(([, b]) => b.className).filter((n) => !classes.has(n)),
      ...way['class edit'].map(([, b]) => b.className).filter((n) => !classes.has(n)),
      ...way['series add'].map(([, b]) => b.seriesName).filter((n) => !series.has(n)),
    ];
    if (missing.length > 0) {
      failures += 1;
      console.error(
        `FAIL: ${missing.length} changes missing on the server, e.g. ${missing.slice(0, 3).join(', ')}`,
      );
    }
  }
}

const fmt = (ms) => ms.toFixed(2);

async function main() {
  const builds = buildsToCompare();
  const results = new Map(builds.map((b) => [b.label, []]));
  for (let run = 1; run <= RUNS; run++)
    for (const build of run % 2 ? builds : [...builds].reverse()) {
      process.stdout.write(`  run ${run}: ${build.label} ...\n`);
      results.get(build.label).push(await runOnce(build));
    }
  const [first, last] = [builds[0].label, builds.at(-1).label];
  for (const phase of ['warm', 'fresh']) {
    console.log(
      phase === 'warm'
        ? `Server CPU ms per applied change on PGlite, the server warm (pass ${WARMUP + 2}: ${WRITES} changes per kind and way each pass, ${RUNS} runs per build; batches of ${BATCH_ITEMS}): min / median / max`
        : 'The same writes in the first pass, on the fresh server (start-up, for information):',
    );
    for (const way of ['single', 'batch'])
      for (const kind of Object.keys(results.get(last)[0][phase][way])) {
        const cells = builds.map((b) => {
          const s = summary(results.get(b.label).map((r) => r[phase][way][kind]));
          return {
            label: b.label,
            text: `${fmt(s.min)} / ${fmt(s.median)} / ${fmt(s.max)}`,
            median: s.median,
          };
        });
        const ratio =
          builds.length > 1 ? `; ratio ${(cells.at(-1).median / cells[0].median).toFixed(2)}` : '';
        console.log(
          `  ${way === 'single' ? 'single legacy write' : 'batch item'}, ${kind}: ${cells.map((c) => `${c.label} ${c.text}`).join('; ')}${ratio}`,
        );
      }
  }
  console.log('Single legacy class add, pass by pass (fresh first, measured last), each run:');
  for (const b of builds)
    for (const r of results.get(b.label)) console.log(`  ${b.label}: ${r.curve.map(fmt).join(' ')}`);
  console.log(
    `Budgets: ${last} <= 3 ms per single legacy write and <= 1 ms per batch item (ratio: ${last} / ${first}).`,
  );
  if (failures > 0) process.exit(1);
}

await main();
