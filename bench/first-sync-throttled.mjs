/**
 * The first sync at a CPU throttle (bench/first-sync.mjs runs it after its own runs): for each
 * build bench/baseline.mjs compares (an earlier release, then this one), a server of that build
 * seeded with the same students and Chromium on that build's bench/first-sync.html; the builds'
 * syncs alternate run by run, each into a fresh database at `rate`× CPU, and each prints its time
 * and its main thread's long tasks (bench/long-tasks.mjs: the longest, and every one over
 * 100 ms with what it was). Resolves to false when a sync did not end with the server's students.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startThrowawayPostgres } from '../scripts/pg-cluster.mjs';
import { buildsToCompare } from './baseline.mjs';
import { launchFreshProfile } from './browser.mjs';
import {
  describeLongTasks,
  longTasksSince,
  pageNow,
  recordLongTasksIn,
  throttle,
  tracedTasks,
} from './long-tasks.mjs';
import { startScaleServer, summary } from './scale-server.mjs';
import { ADMIN, serverSignIn } from './server.mjs';

/** A build's server, and Chromium signed in on its first-sync page. */
async function openBuild(build, engine, students, cluster) {
  const scale = await startScaleServer(engine, students, { root: build.root, cluster });
  const cookie = await serverSignIn(scale.server.apiRoot);
  const reply = await fetch(`${scale.server.apiRoot}/Users/Students/fetchstudents.php?page=1&limit=1`, {
    headers: { Cookie: cookie },
  });
  const onServer = (await reply.json()).total;
  const browser = await launchFreshProfile('bench-profile-');
  const { context } = browser;
  await recordLongTasksIn(context);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error(`[${build.label}] ${e.message}`));
  await page.goto(`http://127.0.0.1:${scale.server.port}/first-sync.html`);
  await page.waitForFunction(() => document.title === 'bench ready');
  if (!(await page.evaluate((a) => window.bench.signIn(a.username, a.password), ADMIN)))
    throw new Error(`Sign-in failed on ${build.label}`);
  const close = async () => {
    await browser.close();
    await scale.close();
  };
  return { ...build, context, page, close, onServer, figures: [] };
}

/** BENCH_CPU_PROFILE=<dir>: a CPU profile of the page per throttled sync (`node bench/profile-top.mjs <dir>`). */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

/** One first sync of `build` into a fresh database at `rate`× CPU. */
async function throttledSync(build, rate, name) {
  const { context, page } = build;
  const cdp = await throttle(context, page, rate);
  if (PROFILE_DIR) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  const since = await pageNow(page);
  const traced = await tracedTasks(cdp, () => page.evaluate((n) => window.bench.sync(n), name));
  const synced = traced.result;
  const tasks = await longTasksSince(page, since);
  if (PROFILE_DIR) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = `${build.label.replace(/\W+/g, '-')}-${name}.cpuprofile`;
    writeFileSync(join(PROFILE_DIR, file), JSON.stringify(profile));
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  await page.evaluate((n) => window.bench.remove(n), name);
  return {
    ms: synced.ms,
    students: synced.students,
    ...tasks,
    longestCpu: traced.longestTaskCpu,
    // Tasks that would pass 100 ms at this rate on an idle machine: their CPU time × the rate.
    cpuOver100: traced.cpuOver(100 / rate),
  };
}

export async function throttledFirstSyncs({ engine, students, runs, rate }) {
  const cluster = engine === 'PostgreSQL' ? await startThrowawayPostgres() : undefined;
  const builds = [];
  let exact = true;
  try {
    for (const build of buildsToCompare()) builds.push(await openBuild(build, engine, students, cluster));
    console.log(`\nFirst sync at ${rate}x CPU, ${builds.map((b) => b.label).join(' and ')} alternately:`);
    // A build whose sync runs in a worker syncs at full speed there (CDP throttles main threads only).
    console.log(
      '(the main thread is throttled, not a worker: compare the builds by their main-thread tasks)',
    );
    for (let run = 1; run <= runs; run++)
      for (const build of builds) {
        const figures = await throttledSync(build, rate, `throttled-${run}`);
        build.figures.push(figures);
        console.log(
          `run ${run}, ${build.label}: ${(figures.ms / 1000).toFixed(2)} s (traced); longest task by CPU ${figures.longestCpu.toFixed(0)} ms (×${rate}: ${(figures.longestCpu * rate).toFixed(0)} ms), ${figures.cpuOver100} tasks over ${(100 / rate).toFixed(0)} ms of CPU; ${describeLongTasks(figures)}`,
        );
        if (figures.students !== build.onServer) {
          console.error(`${build.label} left ${figures.students} students, ${build.onServer} on the server`);
          exact = false;
        }
      }
    const ms = (x) => `${x.toFixed(0)} ms`;
    for (const build of builds) {
      const line = (label, values, fmt) => {
        const x = summary(values);
        console.log(
          `${`${build.label}, ${label}`.padEnd(44)} min ${fmt(x.min)}  median ${fmt(x.median)}  max ${fmt(x.max)}`,
        );
      };
      line(
        `first sync at ${rate}x`,
        build.figures.map((f) => f.ms / 1000),
        (x) => `${x.toFixed(2)} s`,
      );
      line(
        'longest main-thread task',
        build.figures.map((f) => f.longest),
        ms,
      );
      line(
        'tasks over 100 ms',
        build.figures.map((f) => f.over100.length),
        String,
      );
      line(
        'longest task by CPU time',
        build.figures.map((f) => f.longestCpu),
        ms,
      );
      line(
        `tasks over ${(100 / rate).toFixed(0)} ms of CPU (100 ms at ${rate}x)`,
        build.figures.map((f) => f.cpuOver100),
        String,
      );
    }
    if (builds.length === 2) {
      const median = (b, pick) => summary(b.figures.map(pick)).median;
      const ratio = (pick) => (median(builds[1], pick) / median(builds[0], pick)).toFixed(2);
      console.log(
        `this build / ${builds[0].label} (medians): longest task ${ratio((f) => f.longest)}x, by CPU ${ratio((f) => f.longestCpu)}x, sync time ${ratio((f) => f.ms)}x`,
      );
    }
  } finally {
    for (const build of builds) await build.close();
    await cluster?.stop();
  }
  return exact;
}
