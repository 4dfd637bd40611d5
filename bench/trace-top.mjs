/**
 * Where a cold start's main thread spent its time, from Chrome traces in a folder
 * (`BENCH_LIST_TRACE=<dir> node bench/lists.mjs`): per trace, the page's renderer main thread
 * from navigation start to the trace's end (just after the list painted): wall time, time in
 * tasks and between them (waiting: for the service worker, IndexedDB, the list's chunk), and
 * the thread's own CPU time in those tasks (on a loaded machine a task's wall time includes
 * waiting for a core), and the events with the most self time (wall time not inside a nested
 * event), with their count; then
 * the milestones (the document's response, each script evaluated, first paint) as ms from
 * navigation start; and V8's code cache per script (produced, consumed, rejected).
 *   node bench/trace-top.mjs <dir> [count]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTrace } from './trace-events.mjs';

const dir = process.argv[2];
const count = Number(process.argv[3] ?? 22);

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const { events, threadNames } = readTrace(join(dir, file));
  // The page's renderer: the process whose main thread saw the navigation to the app.
  const nav = events.find(
    (e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith('http'),
  );
  if (!nav) {
    console.log(`${file}: no navigationStart to the app`);
    continue;
  }
  const main = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ts >= nav.ts);
  // Not Math.max(...): a trace holds more events than a call's arguments may.
  const end = main.reduce((at, e) => Math.max(at, e.ts + (e.dur ?? 0)), nav.ts);
  const ms = (us) => us / 1000;

  // Complete events, nested by time on the one thread: self time = duration minus children.
  const complete = main
    .filter((e) => e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  const stack = [];
  let busy = 0;
  let cpu = 0;
  const add = (name, us, n = 0) => {
    const v = self.get(name) ?? { us: 0, n: 0 };
    v.us += us;
    v.n += n;
    self.set(name, v);
  };
  for (const e of complete) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) add(parent.name, -Math.min(e.dur, parent.ts + parent.dur - e.ts));
    else {
      busy += e.dur;
      cpu += e.tdur ?? e.dur;
    }
    add(e.name, e.dur, 1);
    stack.push(e);
  }
  const wall = end - nav.ts;
  console.log(
    `\n${file}: ${ms(wall).toFixed(0)} ms from navigation start on the main thread; in tasks ${ms(busy).toFixed(0)} ms (on the CPU ${ms(cpu).toFixed(0)} ms: the rest the thread waited for a core), between them ${ms(wall - busy).toFixed(0)} ms`,
  );
  console.log('  self time by event (ms, count):');
  for (const [name, v] of [...self].sort((a, b) => b[1].us - a[1].us).slice(0, count))
    console.log(`  ${ms(v.us).toFixed(1).padStart(8)}  ${String(v.n).padStart(5)}  ${name}`);

  // Milestones, from navigation start.
  const at = (e) =>
    `${ms(e.ts - nav.ts)
      .toFixed(0)
      .padStart(6)} ms`;
  const short = (url) =>
    String(url ?? '')
      .split('/')
      .pop();
  console.log('  milestones:');
  for (const e of events.filter((x) => x.pid === nav.pid && x.ts >= nav.ts).sort((a, b) => a.ts - b.ts)) {
    const d = e.args?.data ?? {};
    if (e.name === 'ResourceSendRequest') console.log(`  ${at(e)}  request ${short(d.url)}`);
    else if (e.name === 'ResourceFinish') console.log(`  ${at(e)}  finished ${d.requestId ?? ''}`);
    else if (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule')
      console.log(`  ${at(e)}  ${e.name} ${short(d.url ?? e.args?.url)} ${ms(e.dur ?? 0).toFixed(1)} ms`);
    else if (
      ['firstContentfulPaint', 'firstPaint', 'domContentLoadedEventEnd', 'loadEventEnd'].includes(e.name)
    )
      console.log(`  ${at(e)}  ${e.name}`);
    else if (e.name === 'v8.compile' || e.name === 'v8.compileModule') {
      const c = e.args?.data ?? {};
      if (
        c.cacheConsumeOptions ||
        c.cacheProduceOptions ||
        c.consumedCacheSize ||
        c.cacheRejected !== undefined
      )
        console.log(
          `  ${at(e)}  ${e.name} ${short(c.url)} ${ms(e.dur ?? 0).toFixed(1)} ms cache: ${JSON.stringify(c)}`,
        );
    } else if (e.name === 'v8.produceModuleCache' || e.name === 'v8.produceCache')
      console.log(
        `  ${at(e)}  ${e.name} ${short(e.args?.data?.url ?? e.args?.fileName)} ${ms(e.dur ?? 0).toFixed(1)} ms`,
      );
  }
  const names = [...threadNames].filter(([k]) => k.startsWith(`${nav.pid}:`)).map(([, v]) => v);
  console.log(`  renderer threads: ${[...new Set(names)].join(', ')}`);
}
