/**
 * Import delivery beside the server's hashing floor. Every imported student carries a
 * password the server hashes (scrypt at its default cost: PASSWORD_HASH_N is left unset), so
 * an import can be delivered no quicker than rows × one hash's CPU time ÷ the cores the server
 * hashes on. Measured in the same run:
 *   - one hash's CPU time: the server's scrypt call with its parameters (N=2^14 unless
 *     PASSWORD_HASH_N says more, r=8, p=1, 64 bytes), in a child process, median of 15;
 *   - the cores: os.availableParallelism(), what the server sizes its hash pool to; and, just
 *     before each delivery, the floor in wall time (one thread per core hashing), which moves
 *     with the machine's other load as the delivery does; the server's CPU per row from /proc;
 *   - per build (bench/baseline.mjs: be236b9 and this one, alternating), on a fresh PGlite
 *     server: in Chromium with an on-disk profile (bench/import-delivery-page.ts), a CSV of
 *     BENCH_IMPORT_ROWS (2,000) new students checked and queued by the app's CSV worker, then
 *     delivered by the app's replay (timed: first request to last reply); then the same file
 *     with another contact number, whose rows update those students without a password; then
 *     the server alone: as many adds posted from Node in batches of 100, two at once.
 * Both builds are driven by this build's page, so the figures compare the servers.
 * Prints min / median / max per build and the ratio of medians; exits 1 when a row is not
 * delivered or refused, never on timings. BENCH_IMPORT_PAIRS (3) sets the runs per build.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildsToCompare, ROOT } from './baseline.mjs';
import { launchFreshProfile } from './browser.mjs';
import { needBuilt } from './built.mjs';
import { cpuBetween, cpuSnapshot } from './cpu.mjs';
import { summary } from './scale-server.mjs';
import { ADMIN, serverSignIn, startBenchServer } from './server.mjs';

needBuilt('dist-bench/import-delivery.html');

const ROWS = Number(process.env.BENCH_IMPORT_ROWS || 2000);
const PAIRS = Number(process.env.BENCH_IMPORT_PAIRS || 3);
const N = Number(process.env.PASSWORD_HASH_N || 16384);

/** One scrypt hash's CPU time in ms (user + system), as the server derives it, median of 15. */
function hashCpuMs() {
  const script = `
    const { scryptSync, randomBytes } = require('node:crypto');
    const N = ${N}, r = 8, maxmem = 256 * N * r + 1024 * 1024;
    scryptSync('warm-up', randomBytes(16), 64, { N, r, p: 1, maxmem });
    const times = [];
    for (let i = 0; i < 15; i++) {
      const before = process.cpuUsage();
      scryptSync('Secret-' + i + '-x', randomBytes(16), 64, { N, r, p: 1, maxmem });
      const used = process.cpuUsage(before);
      times.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    console.log(times[7]);`;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim());
}

/**
 * The floor in wall time just now: one thread per core, each deriving HASHES_PER_CORE hashes;
 * rows × elapsed ÷ all the hashes. On a machine shared with other work this moves with the
 * load, as the delivery beside it does.
 */
const HASHES_PER_CORE = 8;
async function wallFloorS(cores) {
  const source = `
    const { scryptSync, randomBytes } = require('node:crypto');
    const N = ${N}, r = 8, maxmem = 256 * N * r + 1024 * 1024;
    for (let i = 0; i < ${HASHES_PER_CORE}; i++) scryptSync('Secret-' + i, randomBytes(16), 64, { N, r, p: 1, maxmem });`;
  const started = performance.now();
  await Promise.all(
    Array.from(
      { length: cores },
      () => new Promise((done) => new Worker(source, { eval: true }).on('exit', done)),
    ),
  );
  return (ROWS * (performance.now() - started)) / (cores * HASHES_PER_CORE) / 1000;
}

/**
 * The server alone, no browser: ROWS student adds with passwords posted from here as batches of
 * 100, two at the server at once (as the app's transport sends them). Seconds, or why not.
 */
async function serverAlone(server, tag) {
  const cookie = await serverSignIn(server.apiRoot);
  const place = { contactNumber: '9876543210', country: 'IN', state: 'MH', city: 'Pune', zipcode: '411001' };
  const batches = [];
  for (let i = 0; i < ROWS; i += 100)
    batches.push(
      Array.from({ length: Math.min(100, ROWS - i) }, (_, j) => ({
        method: 'POST',
        path: 'Users/Students/addstudents.php',
        key: `alone-${tag}-${i + j}`,
        json: {
          studentName: `Alone ${tag} ${i + j}`,
          email: `alone-${tag}-${i + j}@example.org`,
          password: `Secret-${i + j}-y`,
          school: 1,
          ...place,
        },
      })),
    );
  let next = 0;
  let refused = 0;
  const send = async () => {
    while (next < batches.length) {
      const requests = batches[next++];
      const res = await fetch(`${server.apiRoot}/sync/batch`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Cookie: cookie,
          Origin: `http://127.0.0.1:${server.port}`,
        },
        body: JSON.stringify({ requests }),
      });
      const replies = (await res.json()).replies ?? [];
      refused += requests.length - replies.filter((r) => r.status === 200).length;
    }
  };
  const started = performance.now();
  await Promise.all([send(), send()]);
  return { s: (performance.now() - started) / 1000, refused };
}

/** One build's import and re-import of ROWS students on a fresh server. */
async function runOnce(build, run) {
  const server = await startBenchServer({
    root: build.root,
    staticDir: join(ROOT, 'dist-bench'),
    env: { PASSWORD_HASH_N: process.env.PASSWORD_HASH_N ?? '' },
  });
  const { context, close } = await launchFreshProfile('bench-import-profile-');
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const marks = {};
    await page.exposeFunction('benchMark', async (name) => {
      if (name === 'first start') marks.wallFloorS = await wallFloorS(availableParallelism());
      marks[name] = cpuSnapshot(server.pid);
    });
    await page.goto(`http://127.0.0.1:${server.port}/import-delivery.html`);
    await page.waitForFunction(() => document.title === 'import bench ready');
    const result = await page.evaluate((o) => window.importBench.run(o), {
      rows: ROWS,
      username: ADMIN.username,
      password: ADMIN.password,
      tag: `r${run}`,
    });
    result.wallFloorS = marks.wallFloorS;
    result.alone = await serverAlone(server, `r${run}`);
    result.serverCpuMsPerRow = cpuBetween(marks['first start'], marks['first end']).server / ROWS;
    return result;
  } finally {
    await close();
    await server.close();
  }
}

const wrong = (step) => step.ready !== ROWS || step.left !== 0 || step.failed !== 0;
const fmt = (s, digits = 1) =>
  `${s.min.toFixed(digits)} / ${s.median.toFixed(digits)} / ${s.max.toFixed(digits)}`;

const builds = buildsToCompare();
const hashMs = hashCpuMs();
const cores = availableParallelism();
const floorS = (ROWS * hashMs) / cores / 1000;
console.log(
  `One hash (scrypt N=${N} r=8 p=1): ${hashMs.toFixed(1)} ms of CPU; cores: ${cores}; floor for ${ROWS} rows: ${floorS.toFixed(1)} s`,
);
const results = new Map(builds.map((b) => [b.label, []]));
let failures = 0;
for (let pair = 0; pair < PAIRS; pair++)
  for (const build of builds) {
    const result = await runOnce(build, pair);
    results.get(build.label).push(result);
    const { withPasswords: a, withoutPasswords: b } = result;
    console.log(
      `${build.label} run ${pair + 1}: with passwords ${(a.ms / 1000).toFixed(1)} s (${a.rounds} rounds; floor in wall time just before: ${result.wallFloorS.toFixed(1)} s; server CPU ${result.serverCpuMsPerRow.toFixed(1)} ms a row); without ${(b.ms / 1000).toFixed(1)} s; server alone ${result.alone.s.toFixed(1)} s`,
    );
    if (result.alone.refused > 0) {
      failures += 1;
      console.log(`  WRONG: the server alone refused ${result.alone.refused} of ${ROWS} rows`);
    }
    for (const step of [a, b])
      if (wrong(step)) {
        failures += 1;
        console.log(`  WRONG: ${JSON.stringify(step)} for ${ROWS} rows`);
      }
  }

console.log(`\n${ROWS} rows, ${PAIRS} runs per build (min / median / max):`);
const medians = new Map();
for (const [label, runs] of results) {
  const seconds = summary(runs.map((r) => r.withPasswords.ms / 1000));
  const ratio = summary(runs.map((r) => r.withPasswords.ms / 1000 / floorS));
  const wallRatio = summary(runs.map((r) => r.withPasswords.ms / 1000 / r.wallFloorS));
  const cpu = summary(runs.map((r) => r.serverCpuMsPerRow));
  const alone = summary(runs.map((r) => r.alone.s));
  const rate = summary(runs.map((r) => ROWS / (r.withoutPasswords.ms / 1000)));
  medians.set(label, { seconds: seconds.median, rate: rate.median });
  console.log(`${label}: with passwords ${fmt(seconds)} s, ${fmt(ratio, 2)}× the floor (budget ≤ 1.25×)`);
  console.log(
    `${label}:   ${fmt(wallRatio, 2)}× the floor in wall time measured just before; server CPU ${fmt(cpu)} ms a row`,
  );
  console.log(`${label}: without passwords ${fmt(rate, 0)} rows/s (budget ≥ 200)`);
  console.log(`${label}: the server alone, batches posted from Node: ${fmt(alone)} s`);
  medians.get(label).alone = alone.median;
}
if (builds.length === 2) {
  const [base, mine] = builds.map((b) => medians.get(b.label));
  console.log(
    `Ratio of medians, this build ÷ ${builds[0].label}: with passwords ${(mine.seconds / base.seconds).toFixed(2)}; rows/s without ${(mine.rate / base.rate).toFixed(2)}; the server alone ${(mine.alone / base.alone).toFixed(2)}`,
  );
}
process.exit(failures > 0 ? 1 : 0);
