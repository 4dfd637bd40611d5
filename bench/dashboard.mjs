/**
 * Dashboard benchmark: the built app on the real server, Chromium with an
 * on-disk profile at 1024x768, 100,000 students in 300 schools, 5,000 teachers added over six
 * months and 40 books (one student in five holding one to three), written into the device's
 * IndexedDB through the app's own pull path (bench/lists-page.ts, `dashboard: true`).
 *
 * Figures over several loads of /homepage (min / median / max), each from navigation start:
 *   - the three figures painted (Teachers Added shows the expected number);
 *   - the four charts painted (each drawn, and the active/inactive table showing the expected
 *     students' numbers: the counts of 100,000 rows, not a first partial answer);
 *   - the longest main-thread task until then (Long Tasks API: tasks over 50 ms; "none" when no
 *     task reached 50 ms), and the longest after the figures painted (the charts' own work);
 *   - a student disabled in a second tab -> the dashboard's chart table showing it, painted: as
 *     soon as that tab, just opened, shows its list (sharing the cores with its start), and
 *     with that tab open and settled (its status 'Online' or 'Live', a second after).
 * "Painted": the DOM shows it, then one requestAnimationFrame and a message posted from it.
 *
 * First, fresh loads of /homepage at 4x CPU throttling, alternating the earlier release
 * (bench/baseline.mjs) and this build, each on its own server and profile seeded alike: the
 * figures painted, the charts painted and the gap between them per build, with the ratio of
 * the medians. The loads and changes above are then measured on this build alone.
 *
 * Prints figures; never fails on timings. Needs `npm run build` (app and server) and the bench
 * pages (`npx vite build --config vite.bench.config.ts`); `npm run bench` does both.
 * Options: BENCH_DASHBOARD_ROWS (100000), BENCH_DASHBOARD_RUNS (3), BENCH_BASELINE (see
 * bench/baseline.mjs; `off`: this build alone), CHROMIUM_PATH.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildsToCompare } from './baseline.mjs';
import { needBuilt } from './built.mjs';
import { generate } from './lists-data.mjs';
import { serverSignIn, signInPage as signIn, startBenchServer } from './server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');
const STUDENTS = Number(process.env.BENCH_DASHBOARD_ROWS || 100_000);
const SCHOOLS = 300;
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS || 3);
/** Set: the first load's main thread is CPU-profiled and its busiest stretches printed. */
const PROFILE = Boolean(process.env.BENCH_DASHBOARD_PROFILE);
/** Set: each change's timeline is printed (writes seen, the worker's work and posts, the window's). */
const TRACE = Boolean(process.env.BENCH_DASHBOARD_TRACE);

/**
 * The longest stretches of a CPU profile with no idle sample (a long task and what ran in it):
 * each stretch's length and the functions with the most self time in it.
 */
function busiestStretches(profile, top = 3) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const stretches = [];
  let current = null;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    const name = nodes.get(id).callFrame.functionName;
    if (name === '(idle)') {
      if (current) stretches.push(current);
      current = null;
      return;
    }
    current ??= { start: t, end: t, self: new Map() };
    current.end = t;
    const f = nodes.get(id).callFrame;
    const where = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    current.self.set(where, (current.self.get(where) ?? 0) + profile.timeDeltas[i]);
  });
  if (current) stretches.push(current);
  return stretches
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, top)
    .map((s) => ({
      ms: (s.end - s.start) / 1000,
      at: (s.start - profile.startTime) / 1000,
      self: [...s.self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([w, us]) => `${(us / 1000).toFixed(1)} ms ${w}`),
    }));
}

/** In the page, before the app's scripts: long tasks, and the moments the figures and charts paint. */
function pageHelper(want) {
  const tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // What ran in frames over 100 ms (Long Animation Frames: the scripts, their invokers).
  const frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 100)
        frames.push({
          start: e.startTime,
          duration: e.duration,
          blocking: e.blockingDuration,
          render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          scripts: e.scripts.map(
            (s) =>
              `${s.invoker} ${s.sourceFunctionName || ''} ${s.sourceURL.split('/').pop()}:${s.sourceCharPosition} ${s.duration.toFixed(0)} ms (forced layout ${s.forcedStyleAndLayoutDuration.toFixed(0)})`,
          ),
        });
  }).observe({ type: 'long-animation-frame', buffered: true });
  const row = (table, label) =>
    [...(document.querySelector(`[data-testid="chart-${table}-table"]`)?.tBodies[0]?.rows ?? [])]
      .find((r) => r.cells[0]?.textContent === label)
      ?.textContent.slice(label.length);
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(null);
    });
  const state = { figures: null, charts: null, tasks, frames };
  window.__dashboard = state;
  /**
   * Resolves once the students' row of the active chart's table shows `cells`: Date.now() when
   * the DOM showed it and when the frame after it was painted.
   */
  state.studentsShow = (cells) =>
    new Promise((done) => {
      const check = () => {
        if (row('active', 'Students') !== cells) return;
        observer.disconnect();
        const dom = Date.now();
        self.__trace?.push({ at: dom, what: 'chart table shows it (DOM)' });
        afterPaint(() => done({ dom, painted: Date.now() }));
      };
      const observer = new MutationObserver(check);
      observer.observe(document, { subtree: true, childList: true, characterData: true });
      check();
    });
  const observer = new MutationObserver(() => {
    if (state.figures === null) {
      const teachers = document.querySelector('[data-testid="figure-teachers"]')?.textContent;
      if (teachers === String(want.teachers)) {
        state.figures = -1;
        afterPaint((t) => {
          state.figures = t;
        });
      }
    }
    if (
      state.charts === null &&
      document.querySelectorAll('.chart-frame[data-drawn]').length === 4 &&
      row('active', 'Students') === want.students
    ) {
      state.charts = -1;
      observer.disconnect();
      afterPaint((t) => {
        state.charts = t;
      });
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

/**
 * In a window and in the list worker (BENCH_DASHBOARD_TRACE), what a change's timeline needs:
 * each Dexie write this context hears of (its BroadcastChannel, which also hears this context's
 * own writes), the counts the worker posts and the window receives, by wall clock.
 */
function traceHelper() {
  const log = [];
  self.__trace = log;
  const note = (what) => log.push({ at: Date.now(), what });
  const bc = new BroadcastChannel('x-storagemutated-1');
  bc.onmessage = (e) => {
    const tables = new Set(Object.keys(e.data ?? {}).map((part) => part.split('/')[3]));
    note(`hears a write to ${[...tables].join(', ')}`);
  };
  if (typeof window === 'undefined') {
    const post = self.postMessage.bind(self);
    self.postMessage = (m, transfer) => {
      if (m?.type === 'counted') note(`posts ${m.answer.part}`);
      return post(m, transfer);
    };
    return;
  }
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      this.addEventListener('message', (e) => {
        const answer = e.data?.type === 'counted' && e.data.answer;
        // The students' counts by status (the fifth counted), to see which answer has the change.
        if (answer) note(`receives ${answer.part} ${JSON.stringify(answer.counts?.[4] ?? '')}`);
      });
    }
  };
}

/** A context's trace and its User Timing measures (dashboard, lists, app), by wall clock. */
function takeTrace() {
  const measures = performance.getEntriesByType('measure').map((m) => ({
    at: performance.timeOrigin + m.startTime,
    what: `${m.name} (${m.duration.toFixed(0)} ms)`,
  }));
  const out = [...(self.__trace ?? []), ...measures];
  if (self.__trace) self.__trace.length = 0;
  return out;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)], max: s.at(-1), n: s.length };
};
const fmt = (xs) => {
  if (xs.length === 0) return 'n/a';
  const s = stats(xs);
  return `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)} ms (n=${s.n})`;
};
/** Longest tasks, 0 standing for "none over 50 ms". */
const fmtTasks = (xs) => (xs.every((x) => x === 0) ? 'none over 50 ms' : fmt(xs));

/** The server's own (demo) people's statuses: they are on the device after the first pull too. */
async function serverPeople(apiRoot) {
  const cookie = await serverSignIn(apiRoot);
  const get = async (path, field) =>
    (await (await fetch(`${apiRoot}/${path}`, { headers: { Cookie: cookie } })).json())[field];
  return {
    students: await get('Users/Students/fetchstudents.php', 'students'),
    teachers: await get('Users/Teachers/fetchteachers.php', 'teachers'),
  };
}

const activeCells = (rows) => {
  const inactive = rows.filter((r) => r.status === 'Disabled').length;
  return `${rows.length - inactive}${inactive}`;
};

/** How many frames a page paints in a second when each frame changes its DOM. */
function framesInASecond(page) {
  return page.evaluate(
    () =>
      new Promise((done) => {
        const mark = document.body.appendChild(document.createElement('span'));
        let frames = 0;
        const started = performance.now();
        const frame = () => {
          frames++;
          mark.textContent = String(frames);
          if (performance.now() - started < 1000) requestAnimationFrame(frame);
          else {
            mark.remove();
            done(frames);
          }
        };
        requestAnimationFrame(frame);
      }),
  );
}

/** One change's timeline from the click (BENCH_DASHBOARD_TRACE), after the work it started settles. */
async function printTrace(run, clicked, shown, contexts) {
  await new Promise((done) => setTimeout(done, 5_000));
  const lines = [];
  for (const [who, ctx] of contexts)
    for (const e of (await ctx?.evaluate(takeTrace)) ?? [])
      if (e.at >= clicked - 50) lines.push({ ...e, who });
  lines.push({ at: clicked + shown, who: 'dashboard', what: 'chart table painted' });
  lines.sort((a, b) => a.at - b.at);
  const seen = await contexts[1][1].evaluate(
    () => `${document.visibilityState}, focus ${document.hasFocus()}`,
  );
  console.log(`  change ${run + 1}, from the click (the dashboard's page: ${seen}):`);
  for (const l of lines)
    console.log(`    ${String(Math.round(l.at - clicked)).padStart(6)} ms  ${l.who.padEnd(10)} ${l.what}`);
}

/** The app and the seeding page of the build at `root` on one origin, so they share the IndexedDB database. */
function staticSite(root) {
  if (root === ROOT) needBuilt('dist/index.html', 'dist-bench/lists.html');
  const staticDir = mkdtempSync(join(tmpdir(), 'bench-dashboard-static-'));
  cpSync(join(root, 'dist'), staticDir, { recursive: true });
  cpSync(join(root, 'dist-bench/lists.html'), join(staticDir, 'lists.html'));
  cpSync(join(root, 'dist-bench/assets'), join(staticDir, 'assets'), { recursive: true });
  return staticDir;
}

/**
 * Seeds the device before the app's service worker exists (it would answer /lists.html with
 * the shell), signs in, and installs the page helper with what the dashboard should show.
 * Returns every student, the server's demo ones included (a change updates their status).
 */
async function seedAndSignIn(context, page, origin, server) {
  const product = (await (await context.newCDPSession(page)).send('Browser.getVersion')).product;
  const { students, teachers } = generate({ schools: SCHOOLS, students: STUDENTS, dashboard: true });
  console.log(
    `${product}, on-disk profile, 1024x768; ${STUDENTS} students, ${SCHOOLS} schools, ${teachers.length} teachers, 40 books; ${RUNS} loads`,
  );
  await page.goto(`${origin}/lists.html`);
  await page.waitForFunction(() => document.title === 'lists bench ready');
  const seeded = await page.evaluate((o) => window.listsBench.seed(o), {
    schools: SCHOOLS,
    students: STUDENTS,
    dashboard: true,
  });
  console.log(`Seeded through applyPulled in ${(seeded.totalMs / 1000).toFixed(1)} s`);
  await signIn(page, origin);

  const demo = await serverPeople(server.apiRoot);
  const allStudents = [...students, ...demo.students];
  const want = { teachers: teachers.length + demo.teachers.length, students: activeCells(allStudents) };
  await context.addInitScript(pageHelper, want);
  if (TRACE) await context.addInitScript(traceHelper);
  return allStudents;
}

/** Adds the User Timing measures of the window ('dashboard …') and the list worker ('lists …') of `p` to `work`. */
async function collectWork(work, p) {
  const take = () => {
    const out = performance
      .getEntriesByType('measure')
      .filter((m) => /^(dashboard|lists) /.test(m.name))
      .map((m) => [m.name, m.duration]);
    performance.clearMeasures();
    return out;
  };
  const all = [await p.evaluate(take)];
  for (const worker of p.workers())
    if (worker.url().includes('list-worker')) all.push(await worker.evaluate(take));
  for (const [name, ms] of all.flat()) work.set(name, [...(work.get(name) ?? []), ms]);
}

/** RUNS loads of /homepage: when the figures and the charts paint, and the longest tasks until then. */
async function measureLoads({ context, page, origin, figures, work }) {
  for (let run = 0; run < RUNS; run++) {
    const cdp = PROFILE && run === 0 ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      await cdp.send('Profiler.start');
    }
    await page.goto(`${origin}/homepage`);
    await page.waitForFunction(() => window.__dashboard?.charts > 0, null, { timeout: 120_000 });
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      console.log('Busiest stretches of the first load (CPU profile, main thread):');
      for (const s of busiestStretches(profile))
        console.log(`  ${s.ms.toFixed(0)} ms at ${s.at.toFixed(0)} ms:\n    ${s.self.join('\n    ')}`);
      await cdp.detach();
    }
    const seen = await page.evaluate(() => window.__dashboard);
    await collectWork(work, page);
    figures.figures.push(seen.figures);
    figures.charts.push(seen.charts);
    const until = seen.tasks.filter((t) => t.start < seen.charts);
    figures.longest.push(Math.max(0, ...until.map((t) => t.duration)));
    for (const f of seen.frames.filter((f) => f.start < seen.charts))
      console.log(
        `  load ${run + 1}: a frame of ${f.duration.toFixed(0)} ms at ${f.start.toFixed(0)} ms (blocking ${f.blocking.toFixed(0)}, render ${f.render.toFixed(0)}): ${f.scripts.join('; ') || 'no script'}`,
      );
    figures.longestAfterFigures.push(
      Math.max(0, ...until.filter((t) => t.start + t.duration > seen.figures).map((t) => t.duration)),
    );
  }
}

/** The first enabled student of the other tab's list disabled there, timed until the dashboard shows it. */
async function disableOne(b, into, run) {
  const { page, other, allStudents } = b;
  const listWorker = () => page.workers().find((w) => w.url().includes('list-worker'));
  const button = other.getByRole('button', { name: 'Disable', exact: true }).first();
  await button.waitFor({ timeout: 60_000 });
  const row = other.getByRole('row').filter({ has: button });
  const name = await row
    .locator('td.cell-primary')
    .first()
    .evaluate((td) => td.firstChild?.textContent);
  const target = allStudents.find((s) => s.student_name === name && s.status !== 'Disabled');
  if (target) target.status = 'Disabled';
  const shown = page.evaluate((cells) => window.__dashboard.studentsShow(cells), activeCells(allStudents));
  const clicked = Date.now();
  await button.click();
  const { dom, painted } = await shown;
  into.dom.push(dom - clicked);
  into.painted.push(painted - clicked);
  if (TRACE)
    await printTrace(run, clicked, painted - clicked, [
      ['other tab', other],
      ['dashboard', page],
      ['its worker', listWorker()],
    ]);
  await collectWork(b.work, page);
}

/**
 * A change in another tab: the first enabled student of the list disabled there. Twice over:
 * as soon as the other tab, just opened, shows its list (the change then shares the two cores
 * with that tab's start: its first pull, its list index loading), and with the other tab
 * open and settled (its status 'Online' or 'Live', a second after), as an administrator who looks for
 * a student before disabling one would click. Returns the dashboard's frame rates.
 */
async function measureChanges(b) {
  const { context, page, origin, figures } = b;
  const other = await context.newPage();
  b.other = other;
  if (TRACE)
    await page
      .workers()
      .find((w) => w.url().includes('list-worker'))
      ?.evaluate(traceHelper);
  for (let run = 0; run < RUNS; run++) {
    await other.goto(`${origin}/students`);
    await disableOne(b, figures.change, run);
  }
  for (let run = 0; run < RUNS; run++) {
    await other
      .waitForFunction(
        // Sent (refused, for a student only the device has: the bench seeds the device alone).
        () =>
          /^(Online|Live)( · \d+ failed)?$/.test(
            document.querySelector('[data-testid="sync-status"]')?.textContent ?? '',
          ),
        null,
        { timeout: 60_000 },
      )
      .catch(async (error) => {
        const shown = await other.evaluate(
          () => document.querySelector('[data-testid="sync-status"]')?.textContent,
        );
        throw new Error(`The other tab's status stayed "${shown}"`, { cause: error });
      });
    await other.waitForTimeout(1000);
    await disableOne(b, figures.changeSettled, RUNS + run);
  }
  // Chromium draws a tab that is not in front a few frames a second (headless too; no switch
  // changes it but one that lifts every frame limit): the painted figures above wait for
  // those frames. Frames with a change each, over a second, behind the other tab and in front.
  const behind = await framesInASecond(page);
  await page.bringToFront();
  const front = await framesInASecond(page);
  await other.close();
  return { behind, front };
}

/** The figures, the frame rates and the User Timing measures. */
function printFigures(figures, frameRates, work) {
  console.log('\nFigures (min / median / max), from navigation start of /homepage:');
  const rows = [
    ['the three figures painted', fmt(figures.figures)],
    ['the four charts painted (counts of every row)', fmt(figures.charts)],
    ['longest main-thread task until the charts painted [<= 100]', fmtTasks(figures.longest)],
    ['longest main-thread task after the figures painted [<= 100]', fmtTasks(figures.longestAfterFigures)],
    [
      'a student disabled in another tab just opened -> the chart table shows it [<= 1000]',
      fmt(figures.change.dom),
    ],
    [
      'a student disabled in another tab, settled -> the chart table shows it [<= 1000]',
      fmt(figures.changeSettled.dom),
    ],
    [
      '  both, painted (the dashboard then a background tab: its frame rate below)',
      fmt([...figures.change.painted, ...figures.changeSettled.painted]),
    ],
  ];
  for (const [label, value] of rows) console.log(`  ${label.padEnd(84)} ${value}`);
  console.log(
    `  the dashboard's frames in a second, each with a change: ${frameRates.behind} behind the other tab, ${frameRates.front} in front`,
  );
  console.log(
    "  the window's and the dashboard tab's list worker's work (User Timing, all loads and changes):",
  );
  for (const [name, xs] of [...work].sort((a, b) => a[0].localeCompare(b[0])))
    console.log(`    ${name.padEnd(72)} ${fmt(xs)}`);
}

/**
 * One build ready to load: its own server, static folder and on-disk profile, the device seeded
 * and signed in. `close()` ends them all.
 */
async function setUpBuild(build) {
  const staticDir = staticSite(build.root);
  const server = await startBenchServer({ staticDir, root: build.root });
  const origin = `http://127.0.0.1:${server.port}`;
  const profile = mkdtempSync(join(tmpdir(), 'bench-dashboard-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1024, height: 768 },
  });
  const close = async () => {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(staticDir, { recursive: true, force: true });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`[page ${build.label}] ${e.message}`));
    console.log(`${build.label}:`);
    const allStudents = await seedAndSignIn(context, page, origin, server);
    return { ...build, context, page, origin, allStudents, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A fresh load of /homepage at 4x CPU throttling (the window's thread, as a slower tablet's):
 * when the figures and the charts painted, from navigation start.
 */
async function throttledLoad({ context, page, origin }) {
  await page.goto('about:blank');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await page.goto(`${origin}/homepage`);
    await page.waitForFunction(() => window.__dashboard?.charts > 0, null, { timeout: 300_000 });
    const { figures, charts } = await page.evaluate(() => window.__dashboard);
    return { figures, charts, gap: charts - figures };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

/** RUNS throttled fresh loads per build, the builds taking turns; prints each build's figures. */
async function compareThrottledLoads(setups) {
  const seen = new Map(setups.map((s) => [s.label, { figures: [], charts: [], gap: [] }]));
  for (let run = 0; run < RUNS; run++)
    for (const setup of setups) {
      const load = await throttledLoad(setup);
      for (const key of ['figures', 'charts', 'gap']) seen.get(setup.label)[key].push(load[key]);
    }
  console.log('\nFresh load of /homepage at 4x CPU (min / median / max), the builds taking turns:');
  for (const key of ['figures', 'charts', 'gap']) {
    const what = {
      figures: 'the three figures painted',
      charts: 'the four charts painted',
      gap: 'charts after figures [<= 1000]',
    }[key];
    for (const { label } of setups)
      console.log(`  ${what.padEnd(34)} ${label.padEnd(12)} ${fmt(seen.get(label)[key])}`);
    if (setups.length === 2) {
      const [a, b] = setups.map((s) => stats(seen.get(s.label)[key]).median);
      console.log(
        `  ${''.padEnd(34)} ${'ratio'.padEnd(12)} ${(b / a).toFixed(2)}x ${setups[0].label}'s median`,
      );
    }
  }
}

async function main() {
  const setups = [];
  try {
    for (const build of buildsToCompare()) setups.push(await setUpBuild(build));
    await compareThrottledLoads(setups);
    const mine = setups.at(-1);
    await mine.page.goto('about:blank');
    const figures = {
      figures: [],
      charts: [],
      longest: [],
      longestAfterFigures: [],
      change: { dom: [], painted: [] },
      changeSettled: { dom: [], painted: [] },
    };
    /** User Timing measures of the window ('dashboard …') and the list worker ('lists …'), by name. */
    const work = new Map();
    const b = { ...mine, figures, work };
    console.log(`\n${mine.label}, unthrottled:`);
    await measureLoads(b);
    const frameRates = await measureChanges(b);
    printFigures(figures, frameRates, work);
  } finally {
    for (const setup of setups) await setup.close();
  }
}

await main();
