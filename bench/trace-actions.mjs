/**
 * Where a list action's time went, from a Chromium trace written by `BENCH_LIST_TRACE=<dir>
 * node bench/lists.mjs`: for each action the bench marked ('bench:key:<term>', 'bench:last'),
 * until the next one (at most a second), the window's and the list worker's tasks with their
 * wall and CPU (thread) time, and the list worker's User Timing measures. A task whose wall time
 * is far above its CPU time waited for a core (a loaded machine), not for our code.
 *
 * Usage: node bench/trace-actions.mjs <keys-or-last-trace.json> [--all] (--all: every task, not only those of
 * 0.3 ms or more).
 */
import { readTrace } from './trace-events.mjs';

const file = process.argv[2];
if (!file) throw new Error('Usage: node bench/trace-actions.mjs <keys-or-last-trace.json> [--all]');
const every = process.argv.includes('--all');
const { events, threadOf } = readTrace(file);
const watched = (e) => /CrRendererMain|DedicatedWorker/.test(threadOf(e));
/** Workers told apart by thread when a trace holds several (the list worker, the sync worker). */
const workerTids = [...new Set(events.filter((e) => /DedicatedWorker/.test(threadOf(e))).map((e) => e.tid))];
const short = (e) =>
  threadOf(e).startsWith('CrRenderer')
    ? 'window'
    : workerTids.length > 1
      ? `worker ${workerTids.indexOf(e.tid) + 1}`
      : 'worker';

const marks = [];
for (const e of events
  .filter((e) => e.cat?.includes('user_timing') && e.name.startsWith('bench:'))
  .sort((a, b) => a.ts - b.ts))
  if (!marks.some((m) => m.name === e.name && Math.abs(m.ts - e.ts) < 1000)) marks.push(e);

/** Events worth a line: tasks, and inside them what a reader looks for. */
const shown = new Set([
  'RunTask',
  'EventDispatch',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'HandlePostMessage',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'Commit',
  'MinorGC',
  'MajorGC',
]);
const ms = (us) => (us / 1000).toFixed(1);

for (const [i, mark] of marks.entries()) {
  const end = Math.min(marks[i + 1]?.ts ?? Number.POSITIVE_INFINITY, mark.ts + 1_000_000);
  const inside = events
    .filter((e) => e.ph === 'X' && e.ts >= mark.ts - 1000 && e.ts < end && watched(e) && shown.has(e.name))
    .sort((a, b) => a.ts - b.ts);
  const tasks = inside.filter((e) => e.name === 'RunTask');
  const cpu = { window: 0, worker: 0 };
  for (const t of tasks) cpu[short(t)] += t.tdur ?? 0;
  const lastEnd = tasks.reduce((at, t) => Math.max(at, t.ts + t.dur), mark.ts);
  console.log(
    `\n=== ${mark.name}: tasks until +${ms(lastEnd - mark.ts)} ms; CPU window ${ms(cpu.window)} ms, worker ${ms(cpu.worker)} ms`,
  );
  for (const e of inside) {
    if (!every && e.dur < 300) continue;
    const data = e.args?.data ?? {};
    const what = [
      data.type && `type=${data.type}`,
      data.functionName &&
        `${data.functionName}@${String(data.url ?? '')
          .split('/')
          .pop()}`,
    ]
      .filter(Boolean)
      .join(' ');
    const indent = e.name === 'RunTask' ? '' : '  ';
    console.log(
      `  ${short(e).padEnd(6)} +${ms(e.ts - mark.ts).padStart(6)}  wall ${ms(e.dur).padStart(6)}  cpu ${e.tdur === undefined ? '   ?' : ms(e.tdur).padStart(5)}  ${indent}${e.name} ${what}`,
    );
  }
  const measures = events.filter(
    (e) => e.cat?.includes('user_timing') && !e.name.startsWith('bench:') && e.ts >= mark.ts && e.ts < end,
  );
  const begun = new Map();
  for (const e of measures.sort((a, b) => a.ts - b.ts)) {
    if (e.ph === 'b') begun.set(`${e.name}:${e.id ?? e.id2?.local ?? ''}`, e.ts);
    if (e.ph === 'e') {
      const key = `${e.name}:${e.id ?? e.id2?.local ?? ''}`;
      const from = begun.get(key) ?? e.ts;
      console.log(`  measure ${e.name}: +${ms(from - mark.ts)} to +${ms(e.ts - mark.ts)} ms`);
    }
  }
}
