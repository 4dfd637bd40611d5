/**
 * Applies the SQL files of server/migrations that this database has not seen yet, in name
 * order, all in ONE transaction: a failing migration leaves the schema as it was.
 */
import type { Migration } from '../migrations';
import type { Database } from './types';

/** Any constant: serialises two server processes starting at once against one PostgreSQL. */
const MIGRATION_LOCK = 7_246_001;

/** Returns the names applied by this call (empty when the schema was already current). */
export async function runMigrations(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  return db.tx(async (q) => {
    await q('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await q<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const m of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
      if (done.has(m.name)) continue;
      await q(m.sql);
      await q('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}
