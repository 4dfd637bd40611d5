/**
 * `node bench/server-lists.mjs` (part of `npm run bench`; build first: `npm run build:server`):
 * the students list endpoint at scale, as the legacy client calls it
 * (`fetchstudents.php?search=…&page=…&limit=10&sortOption=`), on PGlite and on PostgreSQL,
 * each seeded with BENCH_STUDENTS students (100,000) by the scale seed. Every figure is printed
 * beside the unsearched first page measured in the same rounds (its peer: a count(*) of the
 * table and ten rows, the cheapest list call there is). Requests go one after another from
 * Node over loopback (time to the whole body); rounds go through every case in turn, so a
 * change in what else the machine runs falls on all of them. Prints each case's first request
 * (the warm-up: the server caches no answers, so it is the uncached figure) and min / median /
 * p95 / max of the rounds; never fails on timings.
 *
 * Then, on the same server: the server CPU per applied change (a single legacy write, an item
 * of a batch; Node and, on PostgreSQL, the database's processes), and searches right after a
 * bulk insert of as many students again (straight into the database; on PGlite with the server
 * stopped meanwhile, so its first search is also its first after a start) beside the same
 * searches BENCH_SETTLE_MS later.
 *
 * Options: BENCH_STUDENTS (100000), BENCH_LIST_ROUNDS (30), BENCH_ENGINES (PGlite,PostgreSQL),
 * BENCH_SETTLE_MS (60000), BENCH_WRITES (200: changes of each kind measured for CPU).
 */

import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/pg-cluster.mjs';
import { startScaleServer, summary } from './scale-server.mjs';
import { serverSignIn } from './server.mjs';
import { bulkInsertPglite, bulkInsertPostgres, cpuPerChange } from './server-lists-writes.mjs';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 30);
const ENGINES = (process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',');
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 60_000);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const PATH = 'Users/Students/fetchstudents.php';
const PAGE = 10;

const list = (search, page) => ({ search, page: String(page), limit: String(PAGE), sortOption: '' });
const f = (x) => x.toFixed(1).padStart(7);

async function get(apiRoot, cookie, params) {
  const started = performance.now();
  const res = await fetch(`${apiRoot}/${PATH}?${new URLSearchParams(params)}`, {
    headers: { Cookie: cookie },
  });
  const body = await res.json();
  const ms = performance.now() - started;
  if (!body.success) throw new Error(`${PATH} answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms, body };
}

/** The cases, named, with the totals they are built from. */
async function listCases(apiRoot, cookie) {
  const total = (await get(apiRoot, cookie, list('', 1))).body.total;
  const found = (await get(apiRoot, cookie, list('gupta', 1))).body.total;
  const withA = (await get(apiRoot, cookie, list('a', 1))).body.total;
  const last = Math.ceil(total / PAGE);
  const cases = [
    ['first page, no search (peer)', list('', 1)],
    ['search "gupta" (a surname)', list('gupta', 1)],
    ['search "ana" (3 letters)', list('ana', 1)],
    ['search "an" (2 letters)', list('an', 1)],
    ['search "a" (1 letter)', list('a', 1)],
    [`last page (${last})`, list('', last)],
    [`middle page (${Math.ceil(last / 2)})`, list('', Math.ceil(last / 2))],
    [`search "gupta", last page (${Math.ceil(found / PAGE)})`, list('gupta', Math.ceil(found / PAGE))],
    [`search "a", last page (${Math.ceil(withA / PAGE)})`, list('a', Math.ceil(withA / PAGE))],
    [`search "a", middle page (${Math.ceil(withA / PAGE / 2)})`, list('a', Math.ceil(withA / PAGE / 2))],
  ];
  return { cases, total, found };
}

/** The rounds over every case, and the table of their figures. */
async function listRounds(apiRoot, cookie) {
  const { cases, total, found } = await listCases(apiRoot, cookie);
  // Warm-up: each case once (plans, caches), not counted in the rounds but printed as `first`.
  const first = [];
  for (const [, params] of cases) first.push((await get(apiRoot, cookie, params)).ms);
  const times = cases.map(() => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, [, params]] of cases.entries()) times[i].push((await get(apiRoot, cookie, params)).ms);

  const peer = summary(times[0]).median;
  console.log(`${'case'.padEnd(40)}  first     min  median     p95     max  median vs peer`);
  for (const [i, [name]] of cases.entries()) {
    const s = summary(times[i]);
    console.log(
      `${name.padEnd(40)}${f(first[i])} ${f(s.min)} ${f(s.median)} ${f(s.p95)} ${f(s.max)}  ${(s.median / peer).toFixed(2)}x`,
    );
  }
  console.log(`(ms, ${ROUNDS} rounds, ${total.toLocaleString('en')} students, "gupta" matches ${found})`);
}

/**
 * PostgreSQL only, in SQL beside the server: a plain count(*) of the table and of a short
 * search's matches, against the list call of that search (medians of ROUNDS).
 */
async function countsInSql(apiRoot, cookie, databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const timed = async (run) => {
      const ms = [];
      for (let r = 0; r < ROUNDS; r++) {
        const started = performance.now();
        await run();
        ms.push(performance.now() - started);
      }
      return summary(ms).median;
    };
    const table = await timed(() => client.query('SELECT count(*) FROM students'));
    for (const search of ['a', 'an']) {
      const matches = await timed(() =>
        client.query('SELECT count(*) FROM students WHERE student_name ILIKE $1', [`%${search}%`]),
      );
      const listed = await timed(() => get(apiRoot, cookie, list(search, 1)));
      console.log(
        `search "${search}" as listed ${f(listed)} ms; count(*) of the table ${f(table)} ms (${(listed / table).toFixed(2)}x); count(*) of its matches ${f(matches)} ms (${(listed / matches).toFixed(2)}x)`,
      );
    }
  } finally {
    await client.end();
  }
}

/** The searches timed right after a bulk insert, then again SETTLE_MS later. */
async function afterBulkInsert(engine, scale, cookie) {
  const searches = [list('a', 1), list('gupta', 1), list('', 1)];
  const names = ['search "a"', 'search "gupta"', 'first page, no search'];
  let server = scale.server;
  let added;
  if (engine === 'PostgreSQL') added = await bulkInsertPostgres(scale.databaseUrl);
  else server = await scale.restart(async ({ dataDir }) => (added = await bulkInsertPglite(dataDir)));
  const signedIn = engine === 'PostgreSQL' ? cookie : await serverSignIn(server.apiRoot);
  const right = [];
  for (const params of searches) right.push(await get(server.apiRoot, signedIn, params));
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const later = [];
  for (const params of searches) later.push(await get(server.apiRoot, signedIn, params));
  console.log(`\nAfter a bulk insert of ${added.toLocaleString('en')} students (ms; total then):`);
  for (const [i, name] of names.entries())
    console.log(
      `${name.padEnd(24)} right after ${f(right[i].ms)}   ${SETTLE_MS / 1000} s later ${f(later[i].ms)}   (total ${right[i].body.total})`,
    );
}

async function measure(engine) {
  const cluster = engine === 'PostgreSQL' ? await startThrowawayPostgres() : undefined;
  const scale = await startScaleServer(engine, STUDENTS, { cluster });
  try {
    console.log(`\n${engine}: ${scale.seeded}`);
    const cookie = await serverSignIn(scale.server.apiRoot);
    await listRounds(scale.server.apiRoot, cookie);
    if (cluster) await countsInSql(scale.server.apiRoot, cookie, scale.databaseUrl);
    const cpu = await cpuPerChange(scale.server, cookie, cluster?.data, WRITES);
    const line = (c) => `${f(c.node + c.db)} ms (server ${c.node.toFixed(2)}, database ${c.db.toFixed(2)})`;
    console.log(`\nServer CPU per applied change (class adds, ${WRITES} of each):`);
    console.log(`a single legacy write ${line(cpu.single)}`);
    console.log(`a batch item          ${line(cpu.batched)}`);
    await afterBulkInsert(engine, scale, cookie);
  } finally {
    await scale.close();
    cluster?.stop();
  }
}

for (const engine of ENGINES) await measure(engine);
