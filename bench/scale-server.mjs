/**
 * A reference server holding N students (`npm run seed:scale`'s dist-server/seed-scale.js) on
 * PGlite in a temp DATA_DIR or on a database of a throwaway PostgreSQL cluster
 * (scripts/pg-cluster.mjs), for the benchmarks at scale (bench/server-lists.mjs,
 * bench/first-sync.mjs). Build first: `npm run build:server` (and the bench pages).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/pg-cluster.mjs';
import { startBenchServer } from './server.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/** Seeds a database; returns the seed's own line ("Added 100,000 students … in 12.3 s."). */
function seed(students, env, root) {
  const run = spawnSync(
    process.execPath,
    [join(root, 'dist-server/seed-scale.js'), '--students', String(students)],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`Seeding failed:\n${run.stdout}\n${run.stderr.slice(0, 2000)}`);
  return run.stdout.split('\n')[0];
}

/**
 * Starts what `engine` ('PGlite' or 'PostgreSQL') needs, seeds it and starts the server.
 * `options.cluster`: a running cluster to reuse (PostgreSQL); `options.env`: more server settings;
 * `options.root`: the build to seed and run (bench/baseline.mjs), this checkout by default.
 * Resolves to `{ server, seeded, close(), restart(between), databaseUrl }`.
 */
export async function startScaleServer(engine, students, options = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
  const cleanups = [() => rm(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    const env = { DATA_DIR: dataDir };
    if (engine === 'PostgreSQL') {
      let cluster = options.cluster;
      if (!cluster) {
        cluster = await startThrowawayPostgres();
        cleanups.push(() => cluster.stop());
      }
      const name = `bench_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    }
    const root = options.root ?? ROOT;
    const seeded = seed(students, env, root);
    const start = () => startBenchServer({ dataDir, root, env: { ...env, ...options.env } });
    let server = await start();
    cleanups.push(() => server.close());
    /**
     * Stops the server, runs `between` (given the data folder and the database URL, for work
     * a running PGlite server would hold the folder against) and starts it again.
     */
    const restart = async (between) => {
      await server.close();
      await between({ dataDir, databaseUrl: env.DATABASE_URL });
      server = await start();
      return server;
    };
    return { server, seeded, close, restart, databaseUrl: env.DATABASE_URL };
  } catch (err) {
    await close();
    throw err;
  }
}

/** min, median, p95 and max of a list of numbers (ms), and how many. */
export function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
  return { n: s.length, min: s[0], median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}
