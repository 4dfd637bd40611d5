// npm run bench: prints the figures the budgets are checked against. Benchmarks print; tests
// never assert timings. The outbox drain and recovery exit non-zero on duplicates or losses, the
// write cost on a write not applied, the large upload on a file not delivered once and intact
// or sent at more than 1.3x its size, the first sync on a resumed sync that does not end with
// exactly the server's rows, the live stream on a change never painted or a stream that missed
// an event, the import delivery on a row not delivered; never on speed.
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

console.log(
  '\n== Outbox: queue 1,000 changes offline, then drain them, beside Workbox background sync (bench/drain.mjs) ==',
);
must('npx', ['vite', 'build', '--config', 'vite.bench.config.ts', '--logLevel', 'warn']);
const drained = run('node', ['bench/drain.mjs']);

console.log(
  '\n== Server CPU per applied change on PGlite, alone and in batches, beside be236b9 (bench/write-cost.mjs) ==',
);
const writeCost = run('node', ['bench/write-cost.mjs']);

console.log(
  '\n== Bulk actions: 1,000 rows queued by one bulk action and drained, beside 1,000 single edits (bench/bulk.mjs) ==',
);
const bulk = run('node', ['bench/bulk.mjs']);

console.log('\n== Outbox: the server killed several times in a row, then back (bench/recovery.mjs) ==');
const recovered = run('node', ['bench/recovery.mjs']);

console.log(
  '\n== Large upload: 200 MB, resumable through cuts every 20 MB, and as one request (bench/upload.mjs) ==',
);
const uploaded = run('node', ['bench/upload.mjs']);

console.log(
  '\n== First sync of 100,000 students beside the raw IndexedDB write floor (bench/first-sync.mjs) ==',
);
const synced = run('node', ['bench/first-sync.mjs']);

console.log(
  '\n== Lists at 100,000 students: keystroke, sort, last page, first open, cold start (bench/lists.mjs) ==',
);
// The figures must be those of the current app: it is built afresh.
must('npm', ['run', 'build:app']);
const listScreens = run('node', ['bench/lists.mjs']);

console.log(
  '\n== Dashboard at 100,000 students: figures, charts, longest main-thread task, a change (bench/dashboard.mjs) ==',
);
const dashboard = run('node', ['bench/dashboard.mjs']);

console.log(
  '\n== Import and export at 100,000 students: check 10,000 and 100,000 rows, queue 10,000, export 100,000 (bench/import-export.mjs) ==',
);
const csv = run('node', ['bench/import-export.mjs']);

console.log(
  '\n== Import delivery: 2,000 students with passwords beside the hashing floor, then again without (bench/import-delivery.mjs) ==',
);
const imported = run('node', ['bench/import-delivery.mjs']);
// A throwaway build: leave no generated code for the linter or git to find.
rmSync('dist-bench', { recursive: true, force: true });

console.log('\n== GET / while clients send the largest bodies each route allows (bench/latency.mjs) ==');
const latency = run('node', ['bench/latency.mjs']);

console.log(
  '\n== The students list at 100,000: searches and deep pages, PGlite and PostgreSQL (bench/server-lists.mjs) ==',
);
const lists = run('node', ['bench/server-lists.mjs']);

console.log(
  '\n== Scale-out: 1, 2 and 3 processes behind haproxy on one PostgreSQL, beside one process (bench/scale-out.mjs) ==',
);
const scaled = run('node', ['bench/scale-out.mjs']);

console.log(
  '\n== Live stream: commit -> painted on another device, requests per sync round beside the previous release, 1,000 streams on one process (bench/live.mjs) ==',
);
const live = run('node', ['bench/live.mjs']);
process.exit(
  drained ||
    writeCost ||
    bulk ||
    recovered ||
    uploaded ||
    synced ||
    listScreens ||
    dashboard ||
    csv ||
    imported ||
    latency ||
    lists ||
    scaled ||
    live,
);
