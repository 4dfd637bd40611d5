import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One runner, seven projects: unit (local store and outbox on fake-indexeddb), server (the
 * reference server over HTTP on the embedded database), postgres (the same on a real
 * PostgreSQL), s3 (the upload suites with files in a bucket), sync (replay against the real server over HTTP), scale-out (the sync fault
 * and property suites through haproxy in front of several server processes on one
 * PostgreSQL) and browser (Debian's Chromium driven by playwright-core against the built app
 * and the real server).
 */
/**
 * scrypt at its least cost for passwords the tests store (server/auth/password.ts): thousands
 * of sign-ins and stored passwords, none of whose checks depends on the cost.
 */
const CHEAP_HASHES = { PASSWORD_HASH_N: '1024' };

export default defineConfig({
  test: {
    // Two files at a time when vitest is run by hand. `npm test` runs the projects in two lanes
    // of one file each instead (scripts/test-lanes.mjs): vitest runs the browser project (no file
    // parallelism) as a group of its own after every other file, so one run left a core idle.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          env: CHEAP_HASHES,
          // Some tests spawn the built server (a real process: signals, stdout).
          globalSetup: ['tests/helpers/build-server.ts', 'tests/helpers/pglite-pristine.ts'],
          testTimeout: 30_000,
          // beforeAll starts a server (migrations on PGlite): slow on a loaded machine.
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'sync',
          include: ['tests/sync/**/*.test.ts'],
          environment: 'node',
          env: CHEAP_HASHES,
          setupFiles: ['fake-indexeddb/auto'],
          globalSetup: ['tests/helpers/pglite-pristine.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The server suite again on a real PostgreSQL, plus what only PostgreSQL can show.
        // Needs TEST_DATABASE_URL: scripts/test-postgres.mjs starts a throwaway cluster.
        test: {
          name: 'postgres',
          include: ['tests/server/**/*.test.ts', 'tests/postgres/**/*.test.ts'],
          // Backups are of the embedded database only (PostgreSQL has pg_dump): once is enough.
          exclude: [...configDefaults.exclude, 'tests/server/operations/backup.test.ts'],
          environment: 'node',
          env: CHEAP_HASHES,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The upload suites that cover add, replace, delete, resumable uploads through chunks,
        // Range, private and public folders and rollbacks, again with the files in a bucket of
        // an S3 emulator (tests/helpers/storage.ts), plus what only a bucket can show.
        test: {
          name: 's3',
          include: [
            'tests/server/uploads/uploads-serve.test.ts',
            'tests/server/uploads/uploads-write.test.ts',
            'tests/server/uploads/resumable-uploads.test.ts',
            'tests/server/uploads/upload-journal.test.ts',
            'tests/s3/**/*.test.ts',
          ],
          env: { ...CHEAP_HASHES, TEST_STORAGE: 's3' },
          environment: 'node',
          globalSetup: ['tests/helpers/build-server.ts', 'tests/helpers/pglite-pristine.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Needs TEST_DATABASE_URL too (scripts/test-postgres.mjs runs it with 'postgres').
        test: {
          name: 'scale-out',
          include: ['tests/sync/faults.test.ts', 'tests/sync/property.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          globalSetup: ['tests/helpers/build-server.ts'],
          // Five random sessions per property: a run through the cluster costs more (a killed
          // process is replaced while the drain goes on); a client timeout fit for it.
          env: { ...CHEAP_HASHES, TEST_CLUSTER: '3', PROPERTY_RUNS: '5', PROPERTY_TIMEOUT_MS: '2000' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          env: CHEAP_HASHES,
          globalSetup: ['tests/helpers/pglite-pristine.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A poll waits for the page to reach a state (a row gone, a status shown, the server
          // reached through the outbox). vitest's default of 1 s is less than a loaded machine
          // may take to get there; a poll whose state already holds returns at once, so a
          // longer limit costs a passing test nothing.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
