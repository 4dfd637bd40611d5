/** Opens the database the options ask for and brings its schema up to date. */
import { type Migration, migrations } from '../migrations';
import { runMigrations } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Database, Query } from './types';

export type { Database, Query, Statement } from './types';

export interface DatabaseOptions {
  /** Folder for on-disk data; PGlite keeps its files in `${dataDir}/pgdata`. 'memory://' or absent: in memory. */
  dataDir?: string;
  /** When set, a real PostgreSQL is used instead of PGlite. */
  databaseUrl?: string;
  /**
   * Further migrations after ours, in name order with them (tests: the tables of fixture
   * entities that exist only in tests, e.g. `test_fixture_widgets_1`).
   */
  extraMigrations?: readonly Migration[];
  /** Fills a database that this very open created, in the transaction that created it (migrate.ts). */
  seed?: (q: Query) => Promise<void>;
  /** Hears of what goes wrong outside any request (an idle connection lost). */
  warn?: (message: string) => void;
}

export interface OpenedDatabase extends Database {
  /** True when this start created the schema from nothing (used to seed demo data once). */
  fresh: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.warn)
    : await openPglite(options.dataDir);
  try {
    const applied = await runMigrations(
      db,
      [...migrations, ...(options.extraMigrations ?? [])],
      options.seed,
    );
    return { ...db, fresh: applied.includes(migrations[0].name) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
