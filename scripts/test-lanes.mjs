// Runs every test project in two lanes at once (the last step of `npm test`), one file at a
// time in each:
//
// - browser: the Chromium files (one at a time: `fileParallelism: false` in vitest.config.ts),
//   then the s3 project (the upload suites again with a bucket);
// - node: the unit, server and sync projects;
// - then, in each lane, half of the postgres and scale-out projects' files (vitest's --shard),
//   each half on a throwaway PostgreSQL of its own (scripts/test-postgres.mjs): either lane
//   alone would end well after the other.
//
// Why two processes: vitest runs a project without file parallelism as a group of its own AFTER
// every other file, with one worker, so in one `vitest run` the browser files ran alone at the
// end while the second core idled (they mostly wait on Chromium and the server). The lanes hold
// about the same work each (by the files' durations in vitest's results cache), so each keeps
// one core busy to the end.
//
// Each lane's lines are printed as they come, prefixed with the lane's name; the exit status is
// 1 when either lane failed, and a summary at the end says which and how long each took.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

const lanes = [
  {
    name: 'browser',
    steps: [
      ['npx', ['vitest', 'run', '--project', 'browser']],
      ['npx', ['vitest', 'run', '--project', 's3', '--maxWorkers', '1']],
      ['node', ['scripts/test-postgres.mjs', '--maxWorkers', '1', '--shard', '1/2']],
    ],
  },
  {
    name: 'node',
    steps: [
      [
        'npx',
        [
          'vitest',
          'run',
          '--project',
          'unit',
          '--project',
          'server',
          '--project',
          'sync',
          '--maxWorkers',
          '1',
        ],
      ],
      ['node', ['scripts/test-postgres.mjs', '--maxWorkers', '1', '--shard', '2/2']],
    ],
  },
];

for (const lane of lanes) {
  lane.failures = [];
  lane.reportLeft = 0;
}

// CI shows only the end of a long log, and vitest names what failed far above its summary
// (each lane prints its own, interleaved with the other's): the summary repeats the lines that
// name a failed file or test, and the first lines of each failure's report (the error, the
// expected and received values, the test file's line), so the last screen says what failed
// and why.
const plain = (line) => stripVTControlCharacters(line).trim();
const isFailureLine = (line) => {
  const text = plain(line);
  return (
    /^(FAIL\b|×|✗)/.test(text) ||
    /Unhandled (Error|Rejection)/.test(text) ||
    /^(Test Files|Tests|Errors)\b.*\b(failed|errors?)\b/.test(text)
  );
};
// vitest's report of one failure: ' FAIL  project  file > test', then the error and its diff,
// then the stack, whose first line in a test file is where it failed.
const isReportStart = (line) => /^FAIL\b/.test(plain(line));
const REPORT_LINES = 24;
const RECAP_MAX = 120;

const width = Math.max(...lanes.map((l) => l.name.length));

// Arguments after the script's name go to every vitest run (file filters: `node
// scripts/test-lanes.mjs tests/unit/store/bulk` runs what matches in each lane; a run that a
// filter leaves without files passes).
const extra = process.argv.length > 2 ? [...process.argv.slice(2), '--passWithNoTests'] : [];

function runStep(lane, [command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, [...args, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Colours survive the pipe (the lines are read by people in CI logs too).
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    const prefix = `[${lane.name.padEnd(width)}] `;
    for (const stream of [child.stdout, child.stderr]) {
      const out = stream === child.stdout ? process.stdout : process.stderr;
      createInterface({ input: stream }).on('line', (line) => {
        out.write(`${prefix}${line}\n`);
        if (isReportStart(line)) lane.reportLeft = REPORT_LINES;
        else if (lane.reportLeft > 0) {
          lane.reportLeft -= 1;
          const text = plain(line);
          // A rule of ⎯ closes vitest's report of one failure.
          if (text.startsWith('⎯')) {
            lane.reportLeft = 0;
            return;
          }
          // Kept without dedupe (two failures may share a line) and prefixed so they read as
          // belonging to the FAIL line above them.
          if (text !== '') lane.failures.push(`    ${text}`);
          return;
        }
        if (isFailureLine(line)) lane.failures.push(plain(line));
      });
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runLane(lane) {
  const started = Date.now();
  const codes = [];
  // Every step runs even after one fails, so one run reports every failure.
  for (const step of lane.steps) codes.push(await runStep(lane, step));
  return {
    lane: lane.name,
    code: codes.some((c) => c !== 0) ? 1 : 0,
    seconds: (Date.now() - started) / 1000,
  };
}

const results = await Promise.all(lanes.map(runLane));
console.log('');
for (const lane of lanes) {
  if (lane.failures.length === 0) continue;
  // Repeated names are dropped (a failed test is named in the tree and in its report); the
  // report lines, indented, are kept as they came.
  const seen = new Set();
  const unique = lane.failures.filter((l) => l.startsWith('    ') || (!seen.has(l) && seen.add(l)));
  console.log(`lane ${lane.name}, what failed:`);
  for (const line of unique.slice(0, RECAP_MAX)) console.log(`  ${line}`);
  if (unique.length > RECAP_MAX) console.log(`  … and ${unique.length - RECAP_MAX} more lines`);
}
for (const r of results)
  console.log(`lane ${r.lane}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${Math.round(r.seconds)} s`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
