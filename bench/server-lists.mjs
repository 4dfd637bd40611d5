/**
 * `node bench/server-lists.mjs` (part of `npm run bench`; build first: `npm run build:server`):
 * the students list endpoint at scale, as the legacy client calls it
 * (`fetchstudents.php?search=…&page=…&limit=10&sortOption=`), on PGlite and on PostgreSQL,
 * each seeded with BENCH_STUDENTS students (100,000) by the scale seed. Every figure is printed
 * beside the unsearched first page measured in the same rounds (its peer: the cheapest list
 * call there is). Requests go one after another from Node over loopback (time to the whole
 * body); rounds go through every case in turn, so a change in what else the machine runs falls
 * on all of them. Prints each case's first request (the warm-up: the server caches no
 * answers, so it is the uncached figure) and min / median / p95 / max of the rounds; never
 * fails on timings.
 *
 * Options: BENCH_STUDENTS (100000), BENCH_LIST_ROUNDS (30), BENCH_ENGINES (PGlite,PostgreSQL).
 */

import { startScaleServer, summary } from './scale-server.mjs';
import { serverSignIn } from './server.mjs';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 30);
const ENGINES = (process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',');
const PATH = 'Users/Students/fetchstudents.php';
const PAGE = 10;

const list = (search, page) => ({ search, page: String(page), limit: String(PAGE), sortOption: '' });

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

async function measure(engine) {
  const { server, seeded, close } = await startScaleServer(engine, STUDENTS);
  try {
    console.log(`\n${engine}: ${seeded}`);
    const cookie = await serverSignIn(server.apiRoot);
    const total = (await get(server.apiRoot, cookie, list('', 1))).body.total;
    const found = (await get(server.apiRoot, cookie, list('gupta', 1))).body.total;
    const withA = (await get(server.apiRoot, cookie, list('a', 1))).body.total;
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
    // Warm-up: each case once (plans, caches), not counted in the rounds but printed as
    // `first`: the server keeps counts, not answers, so a first query must be as fast.
    const first = [];
    for (const [, params] of cases) first.push((await get(server.apiRoot, cookie, params)).ms);
    const times = cases.map(() => []);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, [, params]] of cases.entries())
        times[i].push((await get(server.apiRoot, cookie, params)).ms);

    const peer = summary(times[0]).median;
    const f = (x) => x.toFixed(1).padStart(7);
    console.log(`${'case'.padEnd(40)}  first     min  median     p95     max  median vs peer`);
    for (const [i, [name]] of cases.entries()) {
      const s = summary(times[i]);
      console.log(
        `${name.padEnd(40)}${f(first[i])} ${f(s.min)} ${f(s.median)} ${f(s.p95)} ${f(s.max)}  ${(s.median / peer).toFixed(2)}x`,
      );
    }
    console.log(`(ms, ${ROUNDS} rounds, ${total.toLocaleString('en')} students, "gupta" matches ${found})`);
  } finally {
    await close();
  }
}

for (const engine of ENGINES) await measure(engine);
