/**
 * Where a process's time went, from the .cpuprofile files in a folder (node --cpu-prof):
 * the functions with the most self time, with the most time including their callees, and the
 * longest stretches the main thread was busy without a break (what a request waiting for the
 * event loop waits at worst; the first, the start, is left out), each with the three
 * functions that took most of it.
 *   node bench/profile-top.mjs <dir> [count]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const count = Number(process.argv[3] ?? 25);
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const total = new Map();
  const dt = profile.timeDeltas;
  const name = (n) => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  };
  profile.samples.forEach((id, i) => {
    const ms = (dt[i] ?? 0) / 1000;
    const leaf = byId.get(id);
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + ms);
    }
  });
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, v]) => `${v.toFixed(0).padStart(8)} ms  ${k}`)
      .join('\n');
  // Busy stretches: consecutive samples outside (idle).
  const stretches = [];
  let current = null;
  profile.samples.forEach((id, i) => {
    const ms = (dt[i] ?? 0) / 1000;
    const leaf = name(byId.get(id));
    if (leaf.startsWith('(idle)')) {
      if (current) stretches.push(current);
      current = null;
      return;
    }
    current ??= { ms: 0, at: 0, by: new Map() };
    current.ms += ms;
    current.by.set(leaf, (current.by.get(leaf) ?? 0) + ms);
  });
  if (current) stretches.push(current);
  const longest = stretches
    .sort((a, b) => b.ms - a.ms)
    .slice(1, 12)
    .map((st) => {
      const most = [...st.by]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([fn, ms]) => `${fn} ${ms.toFixed(1)}`)
        .join('; ');
      return `${st.ms.toFixed(1).padStart(8)} ms  (most in: ${most})`;
    })
    .join('\n');
  console.log(
    `== ${file}\n-- self\n${top(self)}\n-- total\n${top(total)}\n-- longest busy stretches\n${longest}`,
  );
}
