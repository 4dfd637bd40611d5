/** Opens the database the options ask for and brings its schema up to date. */
import { migrations } from '../migrations';
import { runMigrations } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Database } from './types';

export type { Database, Query } from './types';

export interface DatabaseOptions {
  /** Folder for on-disk data; PGlite keeps its files in `${dataDir}/pgdata`. 'memory://' or absent: in memory. */
  dataDir?: string;
  /** When set, a real PostgreSQL is used instead of PGlite. */
  databaseUrl?: string;
}

export interface OpenedDatabase extends Database {
  /** True when this start created the schema from nothing (used to seed demo data once). */
  fresh: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir);
  try {
    const applied = await runMigrations(db, migrations);
    return { ...db, fresh: applied.includes(migrations[0].name) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
