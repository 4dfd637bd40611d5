// npm run seed:scale -- --students 100000: builds the server when its sources are newer than
// dist-server/, then runs dist-server/seed-scale.js (server/commands/seed-scale.ts) with the
// arguments given.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const output = 'dist-server/seed-scale.js';
const sources = ['server', 'src/contract', 'package.json', 'vite.server.config.ts'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (!existsSync(output) || Math.max(...sources.map(newest)) > statSync(output).mtimeMs) {
  const built = spawnSync('npm', ['run', 'build:server'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(new URL(`../${output}`, import.meta.url).href);
