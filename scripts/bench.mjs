// npm run bench: prints the figures the budgets are checked against. Benchmarks print; tests
// never assert timings.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('dist/.vite/manifest.json')) run('npm', ['run', 'build:app']);
console.log('== Bundle size (sign-in and dashboard) ==');
run('node', ['scripts/bundle-size.mjs']);
