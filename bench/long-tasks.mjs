/**
 * The main thread's long tasks in a bench page, at a CPU throttle, the same way for every build
 * a bench compares (bench/baseline.mjs): an init script records, from before the page's own
 * scripts, every long task (PerformanceObserver 'longtask', over 50 ms) and every Long Animation
 * Frame with its scripts (what ran: the invoker, the function, the file and position), so a task
 * over 100 ms is printed with what it was. CPU throttling is CDP's Emulation.setCPUThrottlingRate.
 */

/** Runs in the page before its scripts. */
function recordLongTasks() {
  const record = { tasks: [], frames: [] };
  window.__longTasks = record;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) record.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        record.frames.push({
          start: e.startTime,
          duration: e.duration,
          scripts: e.scripts.map(
            (s) =>
              `${s.invoker}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''} ${s.sourceURL.split('/').pop()}:${s.sourceCharPosition} ${s.duration.toFixed(0)} ms`,
          ),
        });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // A browser without Long Animation Frames: the tasks alone, without what they were.
  }
}

/** Records the long tasks of every page `context` opens from now on. */
export const recordLongTasksIn = (context) => context.addInitScript(recordLongTasks);

/** Sets `page`'s CPU throttling rate (1: none); answers the CDP session. */
export async function throttle(context, page, rate) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

/** The page's clock now (performance.now()), to bound what `longTasksSince` reads. */
export const pageNow = (page) => page.evaluate(() => performance.now());

/**
 * The long tasks that started at or after `since` (the page's clock): the longest, how many
 * passed 100 ms, and each of those with the scripts of the frame it fell in.
 */
export async function longTasksSince(page, since) {
  // Long tasks are reported a little after they end.
  await page.waitForTimeout(200);
  return page.evaluate((from) => {
    const { tasks, frames } = window.__longTasks ?? { tasks: [], frames: [] };
    const recent = tasks.filter((t) => t.start >= from);
    const over = recent
      .filter((t) => t.duration > 100)
      .map((t) => {
        const frame = frames.find((f) => f.start <= t.start + 1 && t.start < f.start + f.duration);
        return { ms: Math.round(t.duration), what: frame?.scripts.join('; ') || '(no script attributed)' };
      });
    return { longest: recent.reduce((m, t) => Math.max(m, t.duration), 0), over100: over };
  }, since);
}

/** One line for a step's long tasks: the longest, and each over 100 ms with what it was. */
export function describeLongTasks({ longest, over100 }) {
  const head = `longest main-thread task ${longest.toFixed(0)} ms, ${over100.length} over 100 ms`;
  const worst = [...over100].sort((a, b) => b.ms - a.ms).slice(0, 5);
  return worst.length ? `${head}: ${worst.map((t) => `${t.ms} ms [${t.what}]`).join(' | ')}` : head;
}

/**
 * The page's main-thread tasks while `run` runs, from a trace (CDP session `cdp`): the longest by
 * its time and by the CPU time it used, and how many passed 100 ms. On a busy machine a task of
 * a few ms of CPU can take 100 ms while its thread waits for a core; CPU throttling stretches a
 * task's time, not its CPU time (rate × CPU time is the task's length on an idle machine).
 */
export async function tracedTasks(cdp, run) {
  const events = [];
  const collect = (e) => {
    for (const x of e.value) if (x.ph === 'X' || x.ph === 'M') events.push(x);
  };
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', '__metadata'] } });
  const result = await run();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name.endsWith('RunTask') && e.pid === main?.pid && e.tid === main?.tid,
  );
  const wall = tasks.map((t) => t.dur / 1000);
  const cpu = tasks.map((t) => (t.tdur ?? 0) / 1000);
  // Not Math.max(...wall): a long sync has more tasks than a call's arguments may be.
  const longest = (values) => values.reduce((a, b) => Math.max(a, b), 0);
  return {
    result,
    longestTask: longest(wall),
    longestTaskCpu: longest(cpu),
    over100: wall.filter((d) => d > 100).length,
    cpuOver: (ms) => cpu.filter((d) => d > ms).length,
  };
}
