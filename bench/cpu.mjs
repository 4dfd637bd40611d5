/**
 * CPU time used by processes, from /proc (Linux). On a machine shared with other work the
 * wall-clock figures move with the load; the CPU seconds a run costs move much less, so the
 * drain bench prints both. Times are user plus system, of processes alive when read (measure
 * while they run).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** pid -> { ppid, ms, kind } for every process readable now. */
function processes() {
  const out = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      out.set(Number(name), {
        ppid: Number(f[1]),
        ms: (Number(f[11]) + Number(f[12])) * TICK_MS,
        kind: chromiumKind(cmd),
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** What a Chromium process does (its --type, the browser process has none); null for others. */
function chromiumKind(cmd) {
  if (!cmd.includes('chromium')) return null;
  const utility = /--utility-sub-type=([\w.-]+)/.exec(cmd)?.[1];
  if (utility) return utility.replace(/\.mojom\.\w+$/, '');
  return /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
}

/**
 * CPU ms so far: the server (its process), the browser (every Chromium process this one
 * started, also by kind: 'browser' holds IndexedDB, 'renderer' the page and its workers,
 * 'network' the network service) and this process (the fault proxy, Playwright).
 */
export function cpuSnapshot(serverPid) {
  const all = processes();
  const children = new Map();
  for (const [pid, p] of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const out = { server: 0, browser: 0, bench: all.get(process.pid)?.ms ?? 0, byKind: {} };
  const walk = (pid, into) => {
    const p = all.get(pid);
    if (!p) return;
    into(p);
    for (const c of children.get(pid) ?? []) walk(c, into);
  };
  walk(serverPid, (p) => {
    out.server += p.ms;
  });
  for (const c of children.get(process.pid) ?? [])
    if (c !== serverPid)
      walk(c, (p) => {
        if (!p.kind) return;
        out.browser += p.ms;
        out.byKind[p.kind] = (out.byKind[p.kind] ?? 0) + p.ms;
      });
  return out;
}

/** What was used between two snapshots. */
export function cpuBetween(before, after) {
  const byKind = {};
  for (const [k, v] of Object.entries(after.byKind)) byKind[k] = v - (before.byKind[k] ?? 0);
  return {
    server: after.server - before.server,
    browser: after.browser - before.browser,
    bench: after.bench - before.bench,
    byKind,
  };
}
