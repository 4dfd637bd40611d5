// npm run bench: prints the figures the budgets are checked against. Benchmarks print; tests
// never assert timings. The outbox drain exits non-zero on duplicates or losses, the large upload
// on a file not delivered once and intact or sent at more than 1.3x its size; never on speed.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;
const must = (cmd, args) => {
  const status = run(cmd, args);
  if (status !== 0) process.exit(status);
};

if (!existsSync('dist/.vite/manifest.json')) must('npm', ['run', 'build:app']);
console.log('== Bundle size (sign-in and dashboard) ==');
must('node', ['scripts/bundle-size.mjs']);

// Always rebuilt: the figures must be those of the current sources (server and sync engine).
must('npm', ['run', 'build:server']);
console.log('\n== Login page on the wire (bench/wire-bytes.mjs) ==');
must('node', ['bench/wire-bytes.mjs']);

console.log('\n== Outbox: queue 1,000 changes offline, then drain them (bench/drain.mjs) ==');
must('npx', ['vite', 'build', '--config', 'vite.bench.config.ts', '--logLevel', 'warn']);
const drained = run('node', ['bench/drain.mjs']);

console.log(
  '\n== Large upload: 200 MB, resumable through cuts every 20 MB, and as one request (bench/upload.mjs) ==',
);
const uploaded = run('node', ['bench/upload.mjs']);

console.log(
  '\n== Lists at 100,000 students: keystroke, sort, last page, first open, cold start (bench/lists.mjs) ==',
);
// The figures must be those of the current app: it is built afresh.
must('npm', ['run', 'build:app']);
const lists = run('node', ['bench/lists.mjs']);
// A throwaway build: leave no generated code for the linter or git to find.
rmSync('dist-bench', { recursive: true, force: true });

console.log('\n== GET / while clients send the largest bodies each route allows (bench/latency.mjs) ==');
const latency = run('node', ['bench/latency.mjs']);

console.log(
  '\n== Scale-out: 1, 2 and 3 processes behind haproxy on one PostgreSQL, beside one process (bench/scale-out.mjs) ==',
);
const scaled = run('node', ['bench/scale-out.mjs']);
process.exit(drained || uploaded || lists || latency || scaled);
