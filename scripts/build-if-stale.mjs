// Builds the app and the server when there is no build or the sources are newer than it
// (npm start, npm run backup / restore, npm run cluster).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = ['dist/index.html', 'dist/sw.js', 'dist-server/index.js', 'dist-server/data-tool.js'];
const sources = [
  'src',
  'server',
  'public',
  'index.html',
  'package.json',
  'vite.config.ts',
  'vite.server.config.ts',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function buildIfStale() {
  const built = outputs.every((f) => existsSync(f));
  const builtAt = built ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
  if (built && Math.max(...sources.map(newest)) <= builtAt) return;
  console.log(built ? 'Sources changed since the last build: building again…' : 'No build yet: building…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
