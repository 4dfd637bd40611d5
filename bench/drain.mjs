/**
 * Outbox drain benchmark (targets: at least 5x Workbox's ceiling, its replay of the same
 * requests to a server that only records them (bench/recording-server.mjs), in the same run;
 * with 20% of replies lost after the server committed: no duplicates, no losses).
 *
 * Each run: a fresh reference server (`node dist-server/index.js`, PGlite in a temp DATA_DIR,
 * serving dist-bench/), the fault proxy of bench/fault-proxy.mjs in front of it, and Chromium
 * with a fresh ON-DISK profile (an in-memory context's IndexedDB is about 2x faster than a
 * user's, design brief §8). The page (bench/bench-page.ts) runs the app's real modules:
 *   1. sign in, then add one subject and 100 base classes and send them (setup, not timed);
 *   2. offline, queue N outbox entries (timed): class adds, edits and deletes of base classes,
 *      series adds in classes added earlier in the batch (dependent ordering);
 *   3. online, drain: call replay until the outbox is empty (timed). Between rounds, pending
 *      entries are made due at once (nextAttemptAt = 0), so the backoff after a lost reply
 *      (1 s, 2 s, ... with jitter) does not dominate: this measures throughput, not the policy;
 *   4. compare the server's rows with the intended set, counting by name.
 *
 * Prints figures; exits 1 on any duplicate, loss or undrained entry (never on timings).
 * Run: `npm run bench` (builds first), or `node bench/drain.mjs` after `npm run build:server`
 * and `npx vite build --config vite.bench.config.ts`. BENCH_ENTRIES (default 1000) sets N;
 * BENCH_RUNS=clean,lost-keepalive limits the runs.
 */
import { launchFreshProfile } from './browser.mjs';
import { needBuilt } from './built.mjs';
import { cpuBetween, cpuSnapshot } from './cpu.mjs';
import { startFaultProxy } from './fault-proxy.mjs';
import { startRecordingServer } from './recording-server.mjs';
import { ADMIN, serverSignIn, startBenchServer } from './server.mjs';

// The page this bench opens, served from dist-bench/ (npm run bench removes it when it ends).
needBuilt('dist-bench/bench.html');

const ENTRIES = Number(process.env.BENCH_ENTRIES || 1000);
const BASE_CLASSES = Math.max(100, Math.ceil(ENTRIES / 10));
const PREFIX = 'Bench';
/** BENCH_CPU_PROFILE=1: sample the page's main thread during each drain, print the top functions. */
// BENCH_DRAIN_TIMELINE=1: prints each request's and read-write transaction's span in our drains.
// BENCH_SERVER_PROF=<dir>: the server runs with --cpu-prof and writes its profile there on exit.
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === '1';
/** Clean runs of each peer (min / median / max of the ratio); the other kinds run once each. */
const PAIRS = Number(process.env.BENCH_PAIRS || 3);
/** Changes another device sends the fresh server first (warmServer); BENCH_WARM_WRITES=0: none. */
const WARM_WRITES = Number(process.env.BENCH_WARM_WRITES ?? 1000);
/** BENCH_WORKBOX=0: our drain only. */
const WORKBOX = process.env.BENCH_WORKBOX !== '0';
/** Workbox's replay after lost replies is restarted at once; past this it is stopped and reported. */
const WORKBOX_CAP_MS = Number(process.env.BENCH_WORKBOX_CAP_S || 120) * 1000;

/** Self time per function of a CDP CPU profile, largest first. */
function topFunctions(profile, count = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const selfById = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const ms = (dt[i] ?? 0) / 1000;
    self.set(name, (self.get(name) ?? 0) + ms);
    selfById.set(id, (selfById.get(id) ?? 0) + ms);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  // Inclusive time of our own functions (synchronous part: native IndexedDB calls and
  // structured cloning land in the function that made them).
  const inclusive = new Map();
  const walk = (id, onStack) => {
    const n = byId.get(id);
    let sum = selfById.get(id) ?? 0;
    const name = n.callFrame.functionName;
    const ours = name && n.callFrame.url.includes('/assets/') && !onStack.has(name);
    const stack = ours ? new Set(onStack).add(name) : onStack;
    for (const c of n.children ?? []) sum += walk(c, stack);
    if (ours) inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
    return sum;
  };
  walk(profile.nodes[0].id, new Set());
  const line = ([name, ms]) =>
    `${ms.toFixed(0).padStart(6)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`;
  return [
    'self:',
    ...[...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(line),
    'inclusive, bundle functions:',
    ...[...inclusive.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(line),
  ];
}

const RUNS = [
  { name: 'clean', label: 'clean, keep-alive', dropRate: 0, closeAfterReply: false },
  { name: 'clean-close', label: 'clean, Connection: close', dropRate: 0, closeAfterReply: true },
  { name: 'lost-keepalive', label: '20% replies lost, keep-alive', dropRate: 0.2, closeAfterReply: false },
  { name: 'lost-close', label: '20% replies lost, Connection: close', dropRate: 0.2, closeAfterReply: true },
];

/** Every row of a list endpoint, straight from the server (not through the proxy). */
async function serverNames(apiRoot, cookie, path, listField, nameField) {
  const res = await fetch(`${apiRoot}/${path}`, { headers: { Cookie: cookie } });
  const body = await res.json();
  if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body[listField].map((r) => r[nameField]).filter((n) => String(n).startsWith(PREFIX));
}

/** Duplicates: extra rows of an intended name. Losses: intended names missing, gone names present. */
function compare(actual, expected, gone = []) {
  const count = new Map();
  for (const n of actual) count.set(n, (count.get(n) ?? 0) + 1);
  let duplicates = 0;
  for (const c of count.values()) if (c > 1) duplicates += c - 1;
  const missing = expected.filter((n) => !count.has(n));
  const stale = gone.filter((n) => count.has(n));
  const expectedSet = new Set(expected);
  const unexpected = [...count.keys()].filter((n) => !expectedSet.has(n) && !gone.includes(n));
  return { duplicates, losses: missing.length + stale.length, missing, stale, unexpected };
}

/**
 * The classes and series the plan refers to made on the server, then the plan queued (and,
 * with Workbox, its queue of the same requests).
 */
async function queueOffline(context, page, peer) {
  const setup = await page.evaluate(([prefix, n]) => window.bench.setup(prefix, n), [PREFIX, BASE_CLASSES]);
  // Offline while queueing, as the administrator would be; nothing is sent meanwhile.
  await context.setOffline(true);
  const queued = await page.evaluate((plan) => window.bench.queue(plan), {
    entries: ENTRIES,
    prefix: PREFIX,
    baseClassIds: setup.baseClassIds,
    baseNames: setup.baseNames,
    subjectId: setup.subjectId,
  });
  const lastClassId = Math.max(...setup.baseClassIds.map(Number));
  const workboxQueued =
    peer === 'outbox' ? null : await page.evaluate((id) => window.bench.workboxQueue(id), lastClassId);
  await context.setOffline(false);
  return { queued, workboxQueued };
}

/** What the server holds after the drain, beside what was queued. */
async function serverHolds(server, queued) {
  const cookie = await serverSignIn(server.apiRoot);
  const classes = compare(
    await serverNames(
      server.apiRoot,
      cookie,
      'Masterfilter/Classes/fetchclasses.php',
      'classes',
      'class_name',
    ),
    queued.expectedClasses,
    queued.goneClasses,
  );
  const series = compare(
    await serverNames(server.apiRoot, cookie, 'Masterfilter/Series/fetchseries.php', 'series', 'series_name'),
    queued.expectedSeries,
  );
  return { classes, series };
}

/**
 * What the recording server got against what Workbox queued: each request once. As the
 * server's rows are compared for the other peers (compare's shape), all counted as classes.
 */
function recordedOnce(recorder, requests) {
  const keys = new Set(recorder.keys);
  const lost = Math.max(0, requests - keys.size);
  const classes = {
    duplicates: recorder.keys.length - keys.size,
    losses: lost,
    missing: [],
    stale: [],
    unexpected: [],
  };
  return { classes, series: { duplicates: 0, losses: 0, missing: [], stale: [], unexpected: [] } };
}

/**
 * Another device's changes sent to the fresh server before the run (not timed): class adds,
 * edits and deletes and series adds, as in the plan, named apart from it. A server in service
 * has run its hot paths many times; a fresh one spends its first writes compiling them (V8
 * optimises PGlite's WebAssembly and the JavaScript on its threads), which is start-up, not
 * the drain. The same for every peer that writes to our server.
 */
async function warmServer(apiRoot, count) {
  const cookie = await serverSignIn(apiRoot);
  let keys = 0;
  const item = (path, json) => ({ method: 'POST', path, key: `warm-${++keys}`, json });
  const batch = async (requests) => {
    const res = await fetch(`${apiRoot}/sync/batch`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ requests }),
    });
    const body = await res.json();
    if (!body.success || body.replies.some((r) => r.status !== 200))
      throw new Error(`Warm-up refused: ${JSON.stringify(body).slice(0, 300)}`);
    return body.replies;
  };
  const subject = { subjectName: 'Warm-up subject', subjectContent: '<p>Warm-up</p>' };
  const [made] = await batch([item('Masterfilter/Subjects/addsubjects.php', subject)]);
  const subjectId = String(made.body.subject_id);
  for (let done = 0; done < count; done += 200) {
    const names = Array.from({ length: 100 }, (_, i) => ({ className: `Warm-up ${done + i}` }));
    const added = await batch(names.map((json) => item('Masterfilter/Classes/addclasses.php', json)));
    const ids = added.map((r) => String(r.body.class_id));
    await batch([
      ...ids.slice(0, 40).map((id, i) =>
        item('Masterfilter/Classes/updateclasses.php', {
          class_id: id,
          className: `Warm-up edited ${done + i}`,
          sortOrder: 0,
        }),
      ),
      ...ids.slice(40, 60).map((id) => item('Masterfilter/Classes/deleteclasses.php', { class_id: id })),
      ...ids.slice(60).map((id, i) =>
        item('Masterfilter/Series/addseries.php', {
          seriesName: `Warm-up ${done + i}`,
          selectedClass: id,
          selectedSubject: subjectId,
        }),
      ),
    ]);
  }
}

/**
 * One run: a fresh server, proxy and browser; setup and queueing as described above; then
 * our drain (`peer: 'outbox'`), Workbox's replay of the same requests to our server
 * ('workbox'), or to a server that only records them ('ceiling': the proxy relays to it once
 * the queueing is done).
 */
async function runOnce(run, peer) {
  const server = await startBenchServer({ cpuProfileDir: process.env.BENCH_SERVER_PROF });
  if (WARM_WRITES > 0 && peer !== 'ceiling') await warmServer(server.apiRoot, WARM_WRITES);
  const proxy = await startFaultProxy(server.port, { closeAfterReply: run.closeAfterReply, seed: 42 });
  const browser = await launchFreshProfile('bench-profile-');
  const recorder = peer === 'ceiling' ? await startRecordingServer() : null;
  const { context } = browser;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
    await page.goto(`${proxy.url}/bench.html`);
    await page.waitForFunction(() => document.title === 'bench ready');
    const cdp = await context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    if (peer !== 'outbox') await page.evaluate(() => window.bench.workboxStart());
    if (!(await page.evaluate((a) => window.bench.signIn(a.username, a.password), ADMIN)))
      throw new Error('Sign-in from the page failed');
    const { queued, workboxQueued } = await queueOffline(context, page, peer);
    if (recorder) proxy.retarget(recorder.port);

    proxy.setDropRate(run.dropRate);
    const before = { ...proxy.stats };
    const cpuBefore = cpuSnapshot(server.pid);
    const serverFrom = server.uptime();
    if (CPU_PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const drained =
      peer === 'outbox'
        ? await page.evaluate(() => window.bench.drain())
        : await page.evaluate((cap) => window.bench.workboxReplay(cap), WORKBOX_CAP_MS);
    const cpuMs = cpuBetween(cpuBefore, cpuSnapshot(server.pid));
    if (process.env.BENCH_SERVER_PROF)
      console.log(
        `    server profile (pid ${server.pid}): the drain from ${fmt(serverFrom, 1)} s to ${fmt(server.uptime(), 1)} s after start`,
      );
    const cpu = CPU_PROFILE ? topFunctions((await cdp.send('Profiler.stop')).profile) : null;
    const proxyStats = Object.fromEntries(Object.entries(proxy.stats).map(([k, v]) => [k, v - before[k]]));

    const { classes, series } = recorder
      ? recordedOnce(recorder, workboxQueued.requests)
      : await serverHolds(server, queued);
    const floor = peer === 'outbox' ? await page.evaluate(() => window.bench.idbFloor()) : null;
    return {
      run,
      peer,
      product,
      queued,
      workboxQueued,
      drained,
      proxyStats,
      classes,
      series,
      cpu,
      floor,
      cpuMs,
    };
  } finally {
    await browser.close();
    await proxy.close();
    await recorder?.close();
    await server.close();
  }
}

const fmt = (n, digits = 0) => n.toFixed(digits);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs, digits = 0) =>
  `min ${fmt(Math.min(...xs), digits)}, median ${fmt(median(xs), digits)}, max ${fmt(Math.max(...xs), digits)}`;

/** Duplicates and losses of a run: server rows against the intended set. */
const faults = (r) => ({
  duplicates: r.classes.duplicates + r.series.duplicates,
  losses: r.classes.losses + r.series.losses + (r.peer === 'outbox' ? r.drained.left : 0),
});

/** How each peer is named in the figures. */
const PEER_NAMES = { outbox: 'our drain', workbox: 'Workbox', ceiling: 'Workbox ceiling' };

/**
 * The order of the runs: the clean run PAIRS times, then each other kind once, each time our
 * drain and Workbox's replay one after the other (on clean runs also Workbox's replay to the
 * recording server, its ceiling), the first of the group rotating, so that a change in what
 * else the machine runs falls on all.
 */
function schedule(kinds) {
  const out = [];
  let turn = 0;
  for (const run of kinds) {
    const times = run.name === 'clean' ? PAIRS : 1;
    for (let i = 0; i < times; i++) {
      const peers = !WORKBOX
        ? ['outbox']
        : run.name === 'clean'
          ? ['outbox', 'workbox', 'ceiling']
          : ['outbox', 'workbox'];
      const group = peers.map((_, k) => peers[(k + turn) % peers.length]);
      turn += 1;
      out.push(group.map((peer) => ({ run, peer, pair: `${run.name} #${i + 1}` })));
    }
  }
  return out;
}

/** Each pair of runs (ours and Workbox's, in alternating order), one after the other. */
async function runPairs(kinds) {
  const pairs = [];
  for (const pair of schedule(kinds)) {
    const done = [];
    for (const { run, peer, pair: name } of pair) {
      process.stdout.write(`  running: ${run.label}, ${PEER_NAMES[peer]} ...\n`);
      done.push({ ...(await runOnce(run, peer)), pair: name });
    }
    pairs.push(done);
  }
  return pairs;
}

/** The queue's mix and what queueing took, in our outbox and in Workbox's queue. */
function printQueueing(results, ours) {
  const q = results[0].queued;
  console.log(
    `Queue mix: ${q.kinds.classAdd} class adds, ${q.kinds.classEdit} class edits, ${q.kinds.classDelete} class deletes, ` +
      `${q.kinds.seriesAdd} series adds in classes of the same batch, plus ${q.kinds.foldedEdit} edits of unsent ` +
      'adds folded into them',
  );
  const queueMs = ours.map((r) => r.queued.ms / r.queued.mutateCalls);
  console.log(
    `Queueing in our outbox: ${q.mutateCalls} mutate calls -> ${q.entries} entries, ms per change: ${spread(queueMs, 2)}`,
  );
  const wbQueued = results.filter((r) => r.workboxQueued);
  if (wbQueued.length)
    console.log(
      `Queueing the same as ${wbQueued[0].workboxQueued.requests} requests in Workbox's queue (pushRequest), ms per request: ` +
        spread(
          wbQueued.map((r) => r.workboxQueued.ms / r.workboxQueued.requests),
          2,
        ),
    );
}

/** A row per run: the drain's time, rate, faults, rounds and CPU. */
function printRuns(results, ours) {
  const cleanOurs = ours.filter((r) => r.run.name === 'clean');
  const cleanMs = cleanOurs.length ? median(cleanOurs.map((r) => r.drained.ms)) : null;
  const rows = results.map((r) => {
    const d = r.drained;
    const s = d.ms / 1000;
    const f = faults(r);
    const mine = r.peer === 'outbox';
    return {
      run: r.run.label,
      peer: PEER_NAMES[r.peer],
      changes: r.queued.entries,
      'drain s': fmt(s, 2),
      'changes/s': fmt(r.queued.entries / s),
      duplicates: f.duplicates,
      losses: f.losses,
      'x clean': mine && cleanMs ? fmt(d.ms / cleanMs, 2) : '-',
      'rounds/restarts': mine ? d.rounds : d.restarts,
      'replies lost': r.proxyStats.dropped,
      'server replays': mine ? r.drained.http.itemsReplayed : r.proxyStats.replayed,
      'write requests': r.proxyStats.writes,
      batches: mine ? r.drained.http.batches : 0,
      'CPU s': fmt((r.cpuMs.server + r.cpuMs.browser) / 1000, 2),
    };
  });
  console.table(rows);
}

const rate = (r) => r.queued.entries / (r.drained.ms / 1000);

/** Our drain against Workbox background sync, the same requests, run by run. */
function printAgainstWorkbox(pairs) {
  console.log('Our drain against Workbox background sync, the same requests, run by run (changes/s):');
  const ratios = new Map();
  const note = (name, ratio) => ratios.set(name, [...(ratios.get(name) ?? []), ratio]);
  for (const pair of pairs) {
    const mine = pair.find((r) => r.peer === 'outbox');
    const wb = pair.find((r) => r.peer === 'workbox');
    const ceiling = pair.find((r) => r.peer === 'ceiling');
    if (!mine || !wb) continue;
    const ratio = wb.drained.ms / mine.drained.ms;
    note(mine.run.name, ratio);
    if (ceiling) note(`${mine.run.name}, against Workbox's ceiling`, rate(mine) / rate(ceiling));
    const wbFaults = faults(wb);
    console.log(
      `  ${pair[0].pair}: ours ${fmt(rate(mine))}, Workbox ` +
        `${fmt(rate(wb))}${wb.drained.capped ? ` (capped after ${fmt(wb.drained.ms / 1000)} s, ${wb.drained.left} left)` : ''}` +
        ` -> ${fmt(ratio, 2)}x` +
        (ceiling
          ? `; Workbox to a server that only records (its ceiling) ${fmt(rate(ceiling))} -> ${fmt(rate(mine) / rate(ceiling), 2)}x`
          : '') +
        (wb.run.dropRate > 0
          ? `; Workbox: ${wb.drained.restarts} replays ended by a lost reply (each a wait for the browser's next sync event), ` +
            `${wbFaults.duplicates} duplicates, ${wbFaults.losses} losses`
          : ''),
    );
  }
  for (const [name, list] of ratios)
    console.log(`  ratio, ${name} (${list.length} runs): ${spread(list, 2)}`);
}

/** Wall-clock figures follow what else the machine runs; the CPU a run costs much less so. */
function printCpu(results) {
  console.log(
    'CPU seconds of each run (server; browser: IndexedDB and the rest of the browser process, the page and its workers, the network service):',
  );
  for (const r of results) {
    const k = r.cpuMs.byKind;
    const s = (ms) => fmt((ms ?? 0) / 1000, 2);
    console.log(
      `  ${r.pair}, ${PEER_NAMES[r.peer]}: server ${s(r.cpuMs.server)}; browser ${s(r.cpuMs.browser)} ` +
        `(browser process ${s(k.browser)}, renderer ${s(k.renderer)}, network ${s(k.network)})`,
    );
  }
}

/** The IndexedDB floor, and where our drain time goes, run by run. */
function printWhereTimeGoes(results, ours) {
  const withFloor = ours.find((r) => r.floor);
  if (withFloor)
    console.log(
      `IndexedDB floor, one-put read-write transactions one after another (ms each): ${Object.entries(
        withFloor.floor,
      )
        .map(([k, v]) => `${k} ${fmt(v, 2)}`)
        .join(', ')}`,
    );
  console.log('Where our drain time goes (per run):');
  for (const r of ours) {
    const d = r.drained;
    const h = d.http;
    console.log(
      `  ${r.pair}: ${h.requests} requests (${h.unreachable} without reply), mean ${fmt(h.totalMs / Math.max(1, h.requests), 1)} ms ` +
        `each (${h.batches} batches carrying ${h.batchItems} items), at most ${h.maxInFlight} in flight, mean ${fmt(h.totalMs / d.ms, 2)} in flight over the drain; ` +
        `${d.idb.transactions} IndexedDB transactions (${d.idb.readwrite} read-write, ` +
        `${fmt(d.idb.transactions / Math.max(1, r.queued.entries), 1)} per entry), summed lifetime ${fmt(d.idb.lifetimeMs)} ms; ` +
        `some request in flight ${fmt((d.httpBusyMs / d.ms) * 100)}% of the drain`,
    );
    console.log(
      `      requests: ${Object.entries(d.httpByPath)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')}`,
    );
    for (const [scope, t] of Object.entries(d.idbByScope).sort((a, b) => b[1].ms - a[1].ms))
      console.log(`      ${scope}: ${t.count} transactions, mean ${fmt(t.ms / t.count, 1)} ms open`);
    if (process.env.BENCH_DRAIN_TIMELINE === '1')
      for (const e of [...d.timeline].sort((a, b) => a.from - b.from))
        console.log(`      ${fmt(e.from, 0).padStart(5)}–${fmt(e.to, 0).padEnd(5)} ${e.what}`);
    if (r.cpu) console.log(`    page main thread, top self time:\n      ${r.cpu.join('\n      ')}`);
  }
  for (const r of results.filter((x) => x.peer !== 'outbox' && x.cpu))
    console.log(`  ${PEER_NAMES[r.peer]} ${r.pair}, page main thread:\n      ${r.cpu.join('\n      ')}`);
}

/** What a run of ours got wrong on the server: duplicates, rows missing or left, entries not drained. */
function problemsOf(r) {
  const problems = [];
  for (const [what, c] of [
    ['class', r.classes],
    ['series', r.series],
  ]) {
    if (c.duplicates) problems.push(`${c.duplicates} duplicate ${what} rows`);
    if (c.missing.length) problems.push(`${what} missing: ${c.missing.slice(0, 5).join(', ')}`);
    if (c.stale.length) problems.push(`${what} still present: ${c.stale.slice(0, 5).join(', ')}`);
    if (c.unexpected.length) problems.push(`unexpected ${what}: ${c.unexpected.slice(0, 5).join(', ')}`);
  }
  if (r.drained.left)
    problems.push(`${r.drained.left} entries not drained: ${r.drained.failures.join('; ')}`);
  return problems;
}

async function main() {
  const wanted = process.env.BENCH_RUNS?.split(',');
  const kinds = wanted ? RUNS.filter((r) => wanted.includes(r.name)) : RUNS;
  const pairs = await runPairs(kinds);
  const results = pairs.flat();
  const ours = results.filter((r) => r.peer === 'outbox');
  console.log(`${results[0].product}, on-disk profile; reference server on PGlite; ${ENTRIES} entries`);

  printQueueing(results, ours);
  printRuns(results, ours);
  if (WORKBOX) printAgainstWorkbox(pairs);
  printCpu(results);
  printWhereTimeGoes(results, ours);
  let bad = false;
  for (const r of ours) {
    const problems = problemsOf(r);
    if (problems.length) {
      bad = true;
      console.error(`FAIL ${r.run.label} (${r.pair}): ${problems.join('; ')}`);
    }
  }
  console.log(
    "Targets: our drain >= 5x Workbox's ceiling (its replay of the same requests to a server that only records them) in the same run; " +
      'with 20% of replies lost, 0 duplicates and 0 losses (Workbox figures under faults are for information).',
  );
  if (bad) process.exit(1);
}

await main();
