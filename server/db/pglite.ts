/** The embedded engine: PostgreSQL compiled to wasm, one connection, data in a folder. */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
// Trigram indexes for the lists' search (migrations/010_lists_at_scale.sql).
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { preparedStatements } from './pglite-prepared';
import { type Database, INT8_OID, parseInt8, type Query } from './types';

/**
 * The extensions every PGlite on our data needs: a table with a trigram index cannot be read
 * without pg_trgm loaded (restores and tests that open a server's folder use these too).
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * PGLITE_PRISTINE: a tarball of a cluster just made by PGlite's initdb (`dumpDataDir`), which a
 * new database starts from instead of running initdb again. initdb is most of a first start
 * (seconds); the test suites set it, as they start hundreds of servers on new data.
 */
async function pristineCluster(dir: string | undefined): Promise<Blob | undefined> {
  const tarball = process.env.PGLITE_PRISTINE;
  if (!tarball || (dir && existsSync(`${dir}/PG_VERSION`))) return undefined;
  return new Blob([await readFile(tarball)]);
}

/** `dataDir` undefined or 'memory://' keeps everything in memory (tests, throwaway runs). */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const inMemory = !dataDir || dataDir === 'memory://';
  const dir = inMemory ? undefined : `${dataDir}/pgdata`;
  if (dir) await mkdir(dir, { recursive: true });
  const db = await PGlite.create({
    dataDir: dir,
    loadDataDir: await pristineCluster(dir),
    parsers: { [INT8_OID]: parseInt8 },
    extensions: PGLITE_EXTENSIONS,
  });

  const prepared = preparedStatements(db);
  type Runner = Pick<PGlite, 'query' | 'exec'>;
  // PGlite's query() uses the extended protocol (one statement); exec() is the simple one.
  // `withParams`: how statements with parameters run (inside a transaction, prepared).
  const queryOn =
    (
      runner: Runner,
      withParams: Query = async <T>(sql: string, params?: readonly unknown[]) =>
        (await runner.query<T>(sql, [...(params ?? [])])).rows,
    ): Query =>
    async <T>(sql: string, params?: readonly unknown[]) => {
      if (params && params.length > 0) return withParams<T>(sql, params);
      prepared.schemaMayChange(sql);
      const results = await runner.exec(sql);
      return (results.at(-1)?.rows ?? []) as T[];
    };

  // One connection: PGlite runs one statement or transaction at a time and queues the rest,
  // so what is in flight is one in use and the others waiting (GET /metrics).
  let inFlight = 0;
  const counted = async <T>(run: () => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await run();
    } finally {
      inFlight--;
    }
  };
  const query = queryOn(db);

  return {
    query: <T>(sql: string, params?: readonly unknown[]) => counted(() => query<T>(sql, params)),
    tx: (fn) => counted(() => db.transaction((tx) => fn(queryOn(tx, prepared.inTransaction)))),
    close: () => db.close(),
    transactionsAtOnce: 1,
    // Inside a transaction of its own, no other one runs meanwhile (PGlite runs one at a time);
    // the checkpoint writes what the log holds into the data files, so a restore replays little.
    snapshot: (alongside) =>
      db.transaction(async (tx) => {
        await tx.exec('CHECKPOINT');
        const dump = await db.dumpDataDir('none');
        await alongside();
        return dump;
      }),
    pool: () => ({ size: 1, inUse: Math.min(inFlight, 1), waiting: Math.max(inFlight - 1, 0) }),
    // The one connection hears its own notifications, after their transaction committed.
    listen: async (channel, heard) => {
      const stop = await db.listen(channel, () => heard());
      return () => stop();
    },
  };
}
