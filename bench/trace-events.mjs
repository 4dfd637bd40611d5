/**
 * A Chrome trace as bench/lists.mjs writes it (`BENCH_LIST_TRACE`), read for trace-top.mjs
 * (cold starts) and trace-actions.mjs (keystrokes and Last clicks): its events, and each
 * thread's name by `pid:tid` (the window is CrRendererMain, the list worker a DedicatedWorker).
 */
import { readFileSync } from 'node:fs';

export function readTrace(file) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const threadNames = new Map();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  return { events, threadNames, threadOf: (e) => threadNames.get(`${e.pid}:${e.tid}`) ?? '' };
}
