/** The embedded engine: PostgreSQL compiled to wasm, one connection, data in a folder. */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
// Trigram indexes for the lists' search (migrations/010_lists_at_scale.sql).
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type Database, INT8_OID, parseInt8, type Query } from './types';

/** `dataDir` undefined or 'memory://' keeps everything in memory (tests, throwaway runs). */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const inMemory = !dataDir || dataDir === 'memory://';
  const dir = inMemory ? undefined : `${dataDir}/pgdata`;
  if (dir) await mkdir(dir, { recursive: true });
  const db = await PGlite.create({
    dataDir: dir,
    parsers: { [INT8_OID]: parseInt8 },
    extensions: { pg_trgm },
  });

  type Runner = Pick<PGlite, 'query' | 'exec'>;
  // PGlite's query() uses the extended protocol (one statement); exec() is the simple one.
  const queryOn =
    (runner: Runner): Query =>
    async <T>(sql: string, params?: readonly unknown[]) => {
      if (params && params.length > 0) return (await runner.query<T>(sql, [...params])).rows;
      const results = await runner.exec(sql);
      return (results.at(-1)?.rows ?? []) as T[];
    };

  return {
    query: queryOn(db),
    tx: (fn) => db.transaction((tx) => fn(queryOn(tx))),
    close: () => db.close(),
  };
}
