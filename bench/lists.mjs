/**
 * List benchmark (lists, sorting, pagination, start-up): the built app on the real
 * server, Chromium with an ON-DISK profile, 100,000 students (and a few hundred schools) in the
 * device's IndexedDB, written through the app's own pull path (bench/lists-page.ts) so that
 * whatever the storage layer keeps beside the rows is built the real way.
 *
 * Figures, each over several runs (min / median / max), each beside its floor measured in the
 * same run (IndexedDB count plus the first page of the table by key, and a read of the whole
 * table, both with IndexedDB alone):
 *   - one search keystroke on /students -> the page and its total painted;
 *   - a word typed at 120 ms a key: from the last key to the final result painted, and whether
 *     results showed while typing;
 *   - a sort by the Name header (ascending, then descending);
 *   - a jump to the last page, right after the list opened and again with it settled;
 *   - first open of /students from the dashboard (the app loaded, the list not yet opened);
 *   - offline cold start: the browser relaunched on the same profile with the network off,
 *     straight to /students, at 4x CPU throttling and unthrottled;
 *   - the JS heap of the page and its workers after the list has been used.
 *
 * "Painted": in the page, a MutationObserver sees the DOM show the expected footer ('Showing a
 * to b of total entries', computed here in Node from the same generated rows) and the expected
 * first row; then one requestAnimationFrame callback (the frame that paints it) and a message
 * posted from it (which runs after that frame's paint). The time is from the action (the input
 * event dispatched, the button clicked; for a cold start, navigation start) to that message.
 *
 * Prints figures; never fails on timings. Needs `npm run build` (app and server) and the bench
 * pages (`npx vite build --config vite.bench.config.ts`); `npm run bench` does both.
 * Options: BENCH_LIST_ROWS (100000), BENCH_LIST_RUNS (3), BENCH_LIST_COLD=0 (no cold starts),
 * BENCH_LIST_VERBOSE=1 (each keystroke as measured), BENCH_LIST_PROFILE=<dir> (a CPU profile of
 * the page per cold start, for `node bench/profile-top.mjs <dir>`), BENCH_LIST_TRACE=<dir> (a
 * Chromium trace of each run's keystrokes and of its Last click, `keys-1.json`, `last-1.json`:
 * the window's and the list worker's tasks with their CPU time, User Timing and CPU samples;
 * `node bench/trace-top.mjs <file>` prints where each keystroke's and click's time went),
 * CHROMIUM_PATH.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildsToCompare } from './baseline.mjs';
import { needBuilt } from './built.mjs';
import { generate } from './lists-data.mjs';
import { serverSignIn, signInPage as signIn, startBenchServer } from './server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const STUDENTS = Number(process.env.BENCH_LIST_ROWS || 100_000);
const SCHOOLS = 300;
const RUNS = Number(process.env.BENCH_LIST_RUNS || 3);
const COLD = process.env.BENCH_LIST_COLD !== '0';
/** BENCH_LIST_VERBOSE=1: each keystroke's time as it is measured. */
const VERBOSE = process.env.BENCH_LIST_VERBOSE === '1';
/**
 * BENCH_LIST_PROFILE=<dir>: a CPU profile of the page's main thread per cold start, and of each
 * run's keystrokes and Last click (bench/profile-top.mjs reads them).
 */
const PROFILE_DIR = process.env.BENCH_LIST_PROFILE;
/**
 * BENCH_LIST_TRACE=<dir>: Chrome traces: one per cold start (`cold-*.json`, read by
 * bench/trace-top.mjs) and one of each run's keystrokes and Last click (`keys-*.json`,
 * `last-*.json`, read by bench/trace-actions.mjs).
 */
const TRACE_DIR = process.env.BENCH_LIST_TRACE;
/** BENCH_LIST_WARM=0: no keystrokes, sorts or jumps: one first open and the count-plus-page floor, then the cold starts. */
const WARM = process.env.BENCH_LIST_WARM !== '0';
const PAGE_SIZE = 10;

// ---------------------------------------------------------------------------------------------
// The model: what the list must show, computed here from the same rows the page wrote.

const fold = (s) =>
  String(s ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byKey = (a, b) => Number(a.student_id) - Number(b.student_id);

function model(students) {
  const byId = [...students].sort(byKey);
  /** Rows matching a search (case- and accent-insensitive substring of the name), by id. */
  const search = (term) => {
    const needle = fold(term.trim());
    return needle ? byId.filter((r) => fold(r.student_name).includes(needle)) : byId;
  };
  /** A plainer match (case-insensitive, accents as typed): for choosing terms. */
  const plainSearch = (term) => {
    const needle = term.trim().toLowerCase();
    return needle ? byId.filter((r) => r.student_name.toLowerCase().includes(needle)) : byId;
  };
  const byName = [...byId].sort((a, b) => collator.compare(a.student_name, b.student_name) || byKey(a, b));
  return { byId, byName, search, plainSearch };
}

/** What the page must show for a list of matching rows in order, at a page. */
function expectation(rows, page = 1) {
  const total = rows.length;
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, page * PAGE_SIZE);
  return {
    footer: `Showing ${first} to ${last} of ${total} entries`,
    name: rows[first - 1]?.student_name ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// In the page: the measuring helper, installed before the app's scripts on every load.

function pageHelper() {
  // The live app only: the start snapshot (a picture before #root) shows the same footer and
  // buttons, inert, until the app's own page has painted.
  const live = () => document.getElementById('root') ?? document;
  const shows = (want) => {
    const foot = live().querySelector('.list-foot p')?.textContent ?? null;
    if (foot !== want.footer) return false;
    if (want.name === null) return true;
    const cell = live().querySelector('tbody tr td.cell-primary');
    return cell?.firstChild?.textContent === want.name;
  };
  /** What the list shows now, for a message when the expected never comes. */
  const showing = () =>
    `footer "${live().querySelector('.list-foot p')?.textContent}", first row "${live().querySelector('tbody tr td.cell-primary')?.firstChild?.textContent}"`;
  /** Resolves once the DOM shows `want`, with the time of the paint that follows (fails after a minute). */
  const painted = (want) =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => {
        observer.disconnect();
        fail(
          new Error(
            `Expected footer "${want.footer}", first row "${want.name}"; the list shows ${showing()}`,
          ),
        );
      }, 60_000);
      const finish = () => {
        clearTimeout(timer);
        observer.disconnect();
        const dom = performance.now();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => done({ dom, paint: performance.now() });
          channel.port2.postMessage(null);
        });
      };
      const observer = new MutationObserver(() => {
        if (shows(want)) finish();
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      if (shows(want)) finish();
    });
  const setSearch = (value) => {
    const input = live().querySelector('input[type="search"]');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  // Either helper may run first (Playwright does not order init scripts): each adds its part.
  window.__lists = Object.assign(window.__lists ?? {}, {
    painted,
    /** One action and the time until `want` is painted. */
    async measure(action, want) {
      const started = performance.now();
      const done = painted(want);
      action();
      const t = await done;
      return { dom: t.dom - started, paint: t.paint - started };
    },
    setSearch,
    /** Keys typed `delay` ms apart; footers seen while typing; the time from the last key to `want`. */
    async type(prefixes, delay, want, intermediate) {
      const seen = new Set();
      const watch = new MutationObserver(() => {
        const foot = live().querySelector('.list-foot p')?.textContent;
        if (foot) seen.add(foot);
      });
      watch.observe(document, { subtree: true, childList: true, characterData: true });
      for (const p of prefixes.slice(0, -1)) {
        setSearch(p);
        await new Promise((r) => setTimeout(r, delay));
      }
      const started = performance.now();
      const done = painted(want);
      setSearch(prefixes.at(-1));
      const t = await done;
      watch.disconnect();
      return {
        paint: t.paint - started,
        intermediate: intermediate.filter((f) => seen.has(f)).length,
        of: intermediate.length,
      };
    },
    click(selector) {
      live().querySelector(selector).click();
    },
  });
}

/** Also in the page: the floors, what IndexedDB alone takes to read the same rows. */
function storeFloors() {
  window.__lists = Object.assign(window.__lists ?? {}, {
    /** IndexedDB alone: count plus the first page by key, and the whole table. */
    async floors(store, pageSize) {
      const idb = await new Promise((done, fail) => {
        const open = indexedDB.open('textbook-admin');
        open.onsuccess = () => done(open.result);
        open.onerror = () => fail(open.error);
      });
      const req = (r) =>
        new Promise((done, fail) => {
          r.onsuccess = () => done(r.result);
          r.onerror = () => fail(r.error);
        });
      let t = performance.now();
      let tx = idb.transaction(store, 'readonly');
      const [count, page] = await Promise.all([
        req(tx.objectStore(store).count()),
        req(tx.objectStore(store).getAll(null, pageSize)),
      ]);
      const countAndPage = performance.now() - t;
      t = performance.now();
      tx = idb.transaction(store, 'readonly');
      const all = await req(tx.objectStore(store).getAll());
      const readAll = performance.now() - t;
      idb.close();
      return { countAndPage, readAll, count, page: page.length, all: all.length };
    },
  });
}

// ---------------------------------------------------------------------------------------------

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)], p95: at(0.95), max: s.at(-1), n: s.length };
};
const fmt = (xs) => {
  if (xs.length === 0) return 'n/a';
  const s = stats(xs);
  return `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)} ms (p95 ${s.p95.toFixed(0)}, n=${s.n})`;
};

/** What a cold start's trace records: the main thread's tasks, V8's compiles and code cache, loading. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink',
  'blink.user_timing',
  'loading',
  'ServiceWorker',
  'toplevel',
];

/** What an action's trace records: the window's and the list worker's tasks with their CPU. */
const ACTION_TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8',
  'disabled-by-default-v8.cpu_profiler',
  'toplevel',
];

/** Ends the tracing started on `cdp` and writes the trace to `file`. */
async function saveTrace(cdp, file) {
  const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let json = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    json += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, json);
}

async function launch(profile) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1024, height: 768 },
  });
  await context.addInitScript(pageHelper);
  await context.addInitScript(storeFloors);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error(`[page] ${e.message}`));
  return { context, page };
}

/** The JS heap in use by the page and each of its workers (CDP Runtime.getHeapUsage), in MiB. */
async function heapUsage(context, page) {
  const cdp = await context.newCDPSession(page);
  const main = await cdp.send('Runtime.getHeapUsage');
  const out = { page: main.usedSize / 2 ** 20, workers: [] };
  for (const worker of page.workers()) {
    try {
      const used = await worker.evaluate(() =>
        // Chromium's performance.memory where a worker has it; else nothing to report.
        'memory' in performance ? performance.memory.usedJSHeapSize : null,
      );
      out.workers.push({ url: worker.url().split('/').pop(), mib: used === null ? null : used / 2 ** 20 });
    } catch {
      out.workers.push({ url: worker.url().split('/').pop(), mib: null });
    }
  }
  const { targetInfos } = await cdp.send('Target.getTargets');
  for (const t of targetInfos.filter((t) => t.type === 'worker')) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
    const answer = new Promise((done) => {
      const onMessage = (event) => {
        if (event.sessionId !== sessionId) return;
        const message = JSON.parse(event.message);
        if (message.id !== 1) return;
        cdp.off('Target.receivedMessageFromTarget', onMessage);
        done(message.result?.usedSize ?? null);
      };
      cdp.on('Target.receivedMessageFromTarget', onMessage);
    });
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }),
    });
    const used = await Promise.race([answer, new Promise((r) => setTimeout(() => r(null), 3000))]);
    out.workers.push({ url: t.url.split('/').pop(), mib: used === null ? null : used / 2 ** 20, cdp: true });
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
  }
  await cdp.detach();
  return out;
}

/** Adds the list worker's measures taken since the last call (and clears them there). */
async function collectEngineWork(page, into) {
  for (const worker of page.workers()) {
    if (!worker.url().includes('list-worker')) continue;
    const measures = await worker.evaluate(() => {
      const out = performance.getEntriesByType('measure').map((m) => [m.name, m.duration]);
      performance.clearMeasures();
      return out;
    });
    for (const [name, ms] of measures) into.set(name, [...(into.get(name) ?? []), ms]);
  }
}

/**
 * Runs `work` inside a Chromium trace of the page (its renderer's threads: the window, the list
 * worker) written to TRACE_DIR/`name`.json; without BENCH_LIST_TRACE, just runs it. The
 * actions mark themselves ('bench:key:<term>', 'bench:last') for bench/trace-actions.mjs.
 */
async function traced(context, page, name, work) {
  if (PROFILE_DIR) return profiled(context, page, name, work);
  if (!TRACE_DIR) return work();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: ACTION_TRACE_CATEGORIES },
  });
  // Each thread's CPU profiler starts with the first script it runs once tracing is on (some
  // 50-100 ms here): in the window and the list worker now, not in the first action traced.
  await page.evaluate(() => 0);
  for (const worker of page.workers()) await worker.evaluate(() => 0);
  const result = await work();
  await saveTrace(cdp, join(TRACE_DIR, `${name}.json`));
  await cdp.detach();
  return result;
}

/** Runs `work` inside a CPU profile of the window, written to PROFILE_DIR/`name`.cpuprofile (bench/profile-top.mjs reads it). */
async function profiled(context, page, name, work) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const result = await work();
  const { profile } = await cdp.send('Profiler.stop');
  mkdirSync(PROFILE_DIR, { recursive: true });
  writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
  await cdp.detach();
  return result;
}

/** The server's own students (demo data): they are on the device after the first pull too. */
async function serverStudents(apiRoot) {
  const cookie = await serverSignIn(apiRoot);
  const res = await fetch(`${apiRoot}/Users/Students/fetchstudents.php`, { headers: { Cookie: cookie } });
  const body = await res.json();
  return body.students.map((s) => ({ student_id: String(s.student_id), student_name: s.student_name }));
}

/** Search terms whose answer is the same with and without accent folding (so before and after compare). */
function chooseTerms(m, candidates) {
  return candidates.filter((t) => {
    const a = m.search(t);
    const b = m.plainSearch(t);
    return a.length === b.length && a.length > 0;
  });
}

/** The app and the seeding page on one origin, so they share the IndexedDB database. */
function staticSite(root) {
  if (root === ROOT) needBuilt('dist/index.html', 'dist-bench/lists.html');
  const staticDir = mkdtempSync(join(tmpdir(), 'bench-lists-static-'));
  cpSync(join(root, 'dist'), staticDir, { recursive: true });
  cpSync(join(root, 'dist-bench/lists.html'), join(staticDir, 'lists.html'));
  cpSync(join(root, 'dist-bench/assets'), join(staticDir, 'assets'), { recursive: true });
  return staticDir;
}

/** The search terms typed one at a time, and the word typed at 120 ms a key. */
const TERMS = [
  's',
  'sh',
  'sha',
  'shar',
  'sharm',
  'sharma',
  'o',
  'ok',
  'oka',
  'okaf',
  'okafo',
  'okafor',
  'k',
  'ka',
  'kap',
  'kapo',
  'kapoo',
  'kapoor',
  'zh',
  'zho',
  'zhou',
];
const WORD = ['t', 'ta', 'tan', 'tana', 'tanak', 'tanaka'];

/**
 * Seeds the students through the app's pull path (before the app's service worker exists: it
 * would answer /lists.html with the app shell), signs in, and returns the model of what the list
 * should show with the terms that compare.
 */
async function seedAndSignIn(page, origin, server) {
  await page.goto(`${origin}/lists.html`);
  await page.waitForFunction(() => document.title === 'lists bench ready');
  const seeded = await page.evaluate((o) => window.listsBench.seed(o), {
    schools: SCHOOLS,
    students: STUDENTS,
  });
  console.log(
    `Seeding through applyPulled, pages of 2,000 rows: ${fmt(seeded.pageMs)} per page, ` +
      `${(seeded.totalMs / 1000).toFixed(1)} s in all; pages of new rows bulk-put by Dexie, the index kept: ${fmt(seeded.indexedPageMs)}, ` +
      `the same into a store without the index: ${fmt(seeded.noIndexPageMs)}; with IndexedDB alone (floor): ${fmt(seeded.floorPageMs)}`,
  );

  const { students } = generate({ schools: SCHOOLS, students: STUDENTS });
  await signIn(page, origin);
  const demo = await serverStudents(server.apiRoot);
  const m = model([...students, ...demo]);
  const terms = chooseTerms(m, TERMS);
  if (chooseTerms(m, WORD).length !== WORD.length) throw new Error('The typed word does not compare');
  return { m, all: expectation(m.byId), terms };
}

/**
 * A keystroke's time as measured, and the list worker's measures taken since the one before
 * (kept for the figures too): how long its answer waited, computed and read its rows.
 */
async function keystrokeWork({ page, engineWork }, t) {
  const since = new Map();
  await collectEngineWork(page, since);
  for (const [name, xs] of since) engineWork.set(name, [...(engineWork.get(name) ?? []), ...xs]);
  const work = [...since].map(
    ([name, xs]) => `${name.replace(/^lists /, '')} ${xs.map((x) => x.toFixed(0)).join('/')}`,
  );
  return `${t.paint.toFixed(0)} ms (DOM ${t.dom.toFixed(0)} ms); worker: ${work.join(', ')}`;
}

/**
 * Keystrokes, one at a time, each waited for. A keystroke whose answer looks like the previous
 * one (same total, same first row) cannot be seen to arrive: it is typed, given a moment, and
 * not counted.
 */
async function measureKeystrokes(b, run) {
  const { context, page, m, all, terms, figures } = b;
  // The first open's measures go to the figures, not to the first keystroke.
  await collectEngineWork(page, b.engineWork);
  let shown = all;
  await traced(context, page, `keys-${run + 1}`, async () => {
    for (const term of terms) {
      const want = expectation(m.search(term));
      if (want.footer === shown.footer && want.name === shown.name) {
        await page.evaluate((term) => window.__lists.setSearch(term), term);
        await page.waitForTimeout(300);
        continue;
      }
      shown = want;
      const t = await page.evaluate(
        ([term, want]) =>
          window.__lists.measure(() => {
            performance.mark(`bench:key:${term}`);
            window.__lists.setSearch(term);
          }, want),
        [term, want],
      );
      figures.keystroke.push(t.paint);
      if (VERBOSE) console.log(`    keystroke "${term}": ${await keystrokeWork(b, t)}`);
    }
  });
  await page.evaluate((want) => window.__lists.measure(() => window.__lists.setSearch(''), want), all);
}

/** A word at 120 ms a key. */
async function measureTypedWord({ page, m, all, figures }) {
  const typed = await page.evaluate(
    ([prefixes, want, intermediate]) => window.__lists.type(prefixes, 120, want, intermediate),
    [WORD, expectation(m.search(WORD.at(-1))), WORD.slice(0, -1).map((p) => expectation(m.search(p)).footer)],
  );
  figures.typedWord.push(typed.paint);
  figures.typedShown.push(`${typed.intermediate}/${typed.of}`);
  await page.evaluate((want) => window.__lists.measure(() => window.__lists.setSearch(''), want), all);
}

/** Sort by the Name header, ascending then descending; false where the list has no such header. */
async function measureSort({ page, origin, m, all, figures, engineWork }) {
  const nameButton = 'th button.sort';
  const sortable = await page.evaluate(
    (sel) => [...document.querySelectorAll(`#root ${sel}`)].some((b) => b.textContent.startsWith('Name')),
    nameButton,
  );
  if (!sortable) return false;
  for (const [dir, list, into] of [
    ['asc', m.byName, figures.sortAsc],
    ['desc', [...m.byName].reverse(), figures.sortDesc],
  ]) {
    const t = await page.evaluate(
      (want) =>
        window.__lists.measure(
          () =>
            [...document.querySelectorAll('#root th button.sort')]
              .find((b) => b.textContent.startsWith('Name'))
              .click(),
          want,
        ),
      { footer: all.footer, name: dir === 'asc' ? list[0].student_name : list[0].student_name },
    );
    into.push(t.paint);
  }
  // Back to the default order (the reload starts a new list worker: keep what this one measured).
  await collectEngineWork(page, engineWork);
  await page.goto(`${origin}/students`);
  await page.evaluate((want) => window.__lists.painted(want), all);
  return true;
}

/** The last page, just opened and settled; returns how it was reached. */
async function measureLastPage({ context, page, m, all, figures }, run) {
  const pages = Math.ceil(m.byId.length / PAGE_SIZE);
  const hasLast = await page.evaluate(() =>
    [...document.querySelectorAll('#root nav[aria-label="Pagination"] button')].some(
      (b) => b.textContent === 'Last',
    ),
  );
  /** A click on a pagination button (by its text, else its label), measured to the page painted. */
  const jump = (text, label, want) =>
    page.evaluate(
      ([text, label, want]) =>
        window.__lists.measure(() => {
          performance.mark(`bench:${text.toLowerCase()}`);
          const buttons = [...document.querySelectorAll('#root nav[aria-label="Pagination"] button')];
          const button =
            buttons.find((b) => b.textContent === text) ??
            buttons.find((b) => b.getAttribute('aria-label') === label);
          button.click();
        }, want),
      [text, label, want],
    );
  const lastPage = expectation(m.byId, pages);
  const last = await traced(context, page, `last-${run + 1}`, () => jump('Last', `Page ${pages}`, lastPage));
  figures.lastPage.push(last.paint);
  // The same jump on a settled list: back to the first page, a second's pause (the app's start
  // after its first paint is done), then Last again. The jump above lands right after the
  // reload's first paint and shares the cores with what the start still does then.
  await jump('First', 'Page 1', all);
  await page.waitForTimeout(1000);
  const settled = await jump('Last', `Page ${pages}`, lastPage);
  figures.lastPageSettled.push(settled.paint);
  return hasLast ? 'the Last button' : `the page button "${pages}"`;
}

/** What IndexedDB alone takes for the first page and for the whole table, after a run. */
async function measureFloors({ page, figures, engineWork }) {
  await collectEngineWork(page, engineWork);
  const floor = await page.evaluate((n) => window.__lists.floors('students', n), PAGE_SIZE);
  figures.floorCountPage.push(floor.countAndPage);
  figures.floorReadAll.push(floor.readAll);
}

/** First open: the dashboard loaded afresh, then the Students link. */
async function measureFirstOpen({ context, page, origin, all, figures, engineWork }, run) {
  await collectEngineWork(page, engineWork);
  const open = await traced(context, page, `open-${run + 1}`, async () => {
    await page.goto(`${origin}/homepage`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForTimeout(500);
    return page.evaluate((want) => {
      performance.mark('bench:open');
      return window.__lists.measure(() => window.__lists.click('a[href="/students"]'), want);
    }, all);
  });
  figures.firstOpen.push(open.paint);
}

/** One warm run on the open browser: first open, keys, a typed word, sort, last page, floors. */
async function warmRun(b, run) {
  await measureFirstOpen(b, run);
  if (!WARM) {
    const floor = await b.page.evaluate((n) => window.__lists.floors('students', n), PAGE_SIZE);
    b.figures.floorCountPage.push(floor.countAndPage);
    return;
  }
  await measureKeystrokes(b, run);
  await measureTypedWord(b);
  b.sortable = await measureSort(b);
  b.lastHow = await measureLastPage(b, run);
  await measureFloors(b);
  if (run === RUNS - 1) b.heap = await heapUsage(b.context, b.page);
}

/**
 * Installed before the app's scripts on a cold start: watches the DOM from the document's
 * start, so a list painted before the load event is timed when it is painted. The whole
 * document: the start snapshot's picture is what the administrator sees first.
 */
function coldWatch(want) {
  const shows = () => {
    if (document.querySelector('.list-foot p')?.textContent !== want.footer) return false;
    const cell = document.querySelector('tbody tr td.cell-primary');
    return want.name === null || cell?.firstChild?.textContent === want.name;
  };
  window.__coldPainted = new Promise((done) => {
    const finish = () => {
      observer.disconnect();
      window.__coldFromSnapshot = document.getElementById('start-snapshot') !== null;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(performance.now());
        channel.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(() => {
      if (shows()) finish();
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** One offline cold start at a CPU throttle `rate`: the browser relaunched on the profile, the network off. */
async function coldStart(b, rate, run) {
  await b.context.close();
  ({ context: b.context, page: b.page } = await launch(b.profile));
  const { context, page } = b;
  await context.addInitScript(coldWatch, b.all);
  await context.setOffline(true);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  if (PROFILE_DIR) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  if (TRACE_DIR)
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: TRACE_CATEGORIES },
      transferMode: 'ReturnAsStream',
    });
  await page.goto(`${b.origin}/students`);
  const t = await page.evaluate(() => window.__coldPainted);
  if (await page.evaluate(() => window.__coldFromSnapshot)) b.figures.coldFromSnapshot++;
  const tag = `${b.tag}-cold-${rate}x-${run + 1}`;
  if (TRACE_DIR) await saveTrace(cdp, join(TRACE_DIR, `${tag}.json`));
  if (PROFILE_DIR) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${tag}.cpuprofile`), JSON.stringify(profile));
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await context.setOffline(false);
  return t;
}

/** One run's offline cold starts, at 4x CPU throttle and unthrottled. */
async function coldStarts(b, run) {
  b.figures.cold4x.push(await coldStart(b, 4, run));
  b.figures.cold1x.push(await coldStart(b, 1, run));
}

/** The figures, the list worker's own measures and the heap. */
function printFigures({ label, figures, sortable, lastHow, engineWork, heap }) {
  console.log(`\n${label} (min / median / max):`);
  const rows = [
    ['search keystroke -> page + total painted (first after open included)', figures.keystroke],
    [`typing "${WORD.at(-1)}" at 120 ms a key: last key -> result`, figures.typedWord],
    ['sort by Name, ascending', figures.sortAsc],
    ['sort by Name, descending', figures.sortDesc],
    [`jump to the last page, by ${lastHow}, just opened`, figures.lastPage],
    [`jump to the last page, by ${lastHow}, settled (1 s after)`, figures.lastPageSettled],
    ['first open of /students from the dashboard', figures.firstOpen],
    ['offline cold start -> painted list, 4x CPU throttle', figures.cold4x],
    ['offline cold start -> painted list, unthrottled', figures.cold1x],
    ['floor: IndexedDB count + first page (10 rows by key)', figures.floorCountPage],
    ['floor: IndexedDB read of the whole table', figures.floorReadAll],
  ];
  for (const [label, xs] of rows) console.log(`  ${label.padEnd(78)} ${fmt(xs)}`);
  if (!sortable) console.log('  (no sortable Name column: sorting not measured)');
  const colds = figures.cold4x.length + figures.cold1x.length;
  console.log(`  cold starts first painted by the start snapshot: ${figures.coldFromSnapshot} of ${colds}`);
  console.log(
    `  results shown while typing (intermediate footers seen / keys before the last): ${figures.typedShown.join(', ')}`,
  );
  if (engineWork.size) {
    console.log("  the list worker's work (User Timing measures, all runs):");
    for (const [name, xs] of [...engineWork].sort((a, b) => a[0].localeCompare(b[0])))
      console.log(`    ${name.padEnd(76)} ${fmt(xs)}`);
  }
  if (heap) {
    const workers = heap.workers.map((w) => `${w.url} ${w.mib === null ? 'n/a' : `${w.mib.toFixed(1)} MiB`}`);
    console.log(
      `  JS heap after use: page ${heap.page.toFixed(1)} MiB${workers.length ? `; workers: ${workers.join(', ')}` : '; no workers'}`,
    );
  }
}

/** This build against the baseline: the ratio of each budgeted figure, with the budget. */
function printRatios(base, mine) {
  const ratio = (pick, key) => {
    const a = stats(pick(base.figures))[key];
    const b = stats(pick(mine.figures))[key];
    return a > 0 ? (b / a).toFixed(2) : 'n/a';
  };
  console.log(`\nThis build / ${base.label} (same run; the budget in brackets):`);
  for (const [label, pick, key, budget] of [
    ['offline cold start, 4x CPU, median', (f) => f.cold4x, 'median', '<= 0.5'],
    ['offline cold start, unthrottled, median', (f) => f.cold1x, 'median', ''],
    ['search keystroke -> painted, median', (f) => f.keystroke, 'median', '<= 0.6'],
    ['search keystroke -> painted, p95', (f) => f.keystroke, 'p95', '<= 0.5'],
    ['first open of /students, median', (f) => f.firstOpen, 'median', ''],
  ])
    if (pick(base.figures).length && pick(mine.figures).length)
      console.log(`  ${label.padEnd(50)} ${ratio(pick, key)}${budget ? ` [${budget}]` : ''}`);
}

const emptyFigures = () => ({
  keystroke: [],
  typedWord: [],
  typedShown: [],
  sortAsc: [],
  sortDesc: [],
  lastPage: [],
  lastPageSettled: [],
  firstOpen: [],
  floorCountPage: [],
  floorReadAll: [],
  cold4x: [],
  cold1x: [],
  /** Cold starts whose list was first painted by the start snapshot. */
  coldFromSnapshot: 0,
});

/**
 * One build's bench: its app and bench page on its own server, its own on-disk profile, the
 * students seeded through its own pull path (its store's format may differ), signed in.
 */
async function prepareBuild({ label, root }, tag) {
  const staticDir = staticSite(root);
  const server = await startBenchServer({ staticDir, root });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = mkdtempSync(join(tmpdir(), 'bench-lists-profile-'));
  const b = { ...(await launch(profile)), label, tag, profile, origin, staticDir, server };
  Object.assign(b, { sortable: true, lastHow: '', heap: null, figures: emptyFigures() });
  /** The list worker's own User Timing measures (src/db/list-engine/timing.ts), by name. */
  b.engineWork = new Map();
  console.log(`\n${label}: seeding`);
  Object.assign(b, await seedAndSignIn(b.page, origin, server));
  return b;
}

async function closeBuild(b) {
  await b.context.close().catch(() => {});
  await b.server.close();
  rmSync(b.profile, { recursive: true, force: true });
  rmSync(b.staticDir, { recursive: true, force: true });
}

/** Relaunches the build's browser on its profile (closed while the other build runs). */
async function reopen(b) {
  ({ context: b.context, page: b.page } = await launch(b.profile));
  await b.page.goto(`${b.origin}/homepage`);
  await b.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

async function main() {
  const builds = [];
  try {
    for (const [i, build] of buildsToCompare().entries()) {
      const b = await prepareBuild(build, i === 0 && build.root !== ROOT ? 'baseline' : 'this');
      builds.push(b);
      await b.context.close();
    }
    const { context, page } = await launch(builds[0].profile);
    const product = (await (await context.newCDPSession(page)).send('Browser.getVersion')).product;
    await context.close();
    console.log(
      `\n${product}, on-disk profile, 1024x768; ${STUDENTS} students, ${SCHOOLS} schools; ${RUNS} runs, ` +
        `builds alternating: ${builds.map((b) => b.label).join(', ')}`,
    );
    for (let run = 0; run < RUNS; run++)
      for (const b of builds) {
        console.log(`  run ${run + 1}: ${b.label}`);
        await reopen(b);
        if (WARM || run === 0) await warmRun(b, run);
        if (COLD) await coldStarts(b, run);
        await b.context.close();
      }
    for (const b of builds) printFigures(b);
    if (builds.length === 2) printRatios(builds[0], builds[1]);
  } finally {
    for (const b of builds) await closeBuild(b);
  }
}

await main();
