/**
 * Vitest global setup of the projects whose tests spawn the built server (dist-server/):
 * builds it when it is missing or older than the sources, once, before any test runs. In
 * `npm test` the build step has just made it, and this costs a look at file times.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newest = (path: string): number => {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};

export default function setup() {
  const entry = 'dist-server/index.js';
  const sources = ['server', 'src/contract', 'package.json', 'vite.server.config.ts'];
  if (existsSync(entry) && statSync(entry).mtimeMs >= Math.max(...sources.map(newest))) return;
  const built = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'vite.server.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) throw new Error('Building dist-server failed');
}
