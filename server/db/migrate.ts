/**
 * Applies the SQL files of server/migrations that this database has not seen yet, in name
 * order, all in ONE transaction: a failing migration leaves the schema as it was.
 *
 * Several server processes may start at the same moment on one empty PostgreSQL database
 * (scale-out, README "Running several processes"): the transaction takes an advisory lock
 * first, so one of them migrates while the others wait, then find nothing left to do. The
 * demo data (`onFresh`) goes in the same transaction as the schema that the very first
 * migration creates, so that the database is never seen created but not yet seeded, and a
 * start that dies half-way leaves nothing behind to be mistaken for an existing install.
 */
import type { Migration } from '../migrations';
import type { Database, Query } from './types';

/** Any constant: serialises two server processes starting at once against one PostgreSQL. */
const MIGRATION_LOCK = 7_246_001;

/**
 * Returns the names applied by this call (empty when the schema was already current).
 * `onFresh` runs after them, in their transaction, when this call created the schema.
 */
export async function runMigrations(
  db: Database,
  migrations: readonly Migration[],
  onFresh?: (q: Query) => Promise<void>,
): Promise<string[]> {
  return db.tx(async (q) => {
    await q('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await q<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    const ordered = [...migrations].sort((a, b) => a.name.localeCompare(b.name));
    for (const m of ordered) {
      if (done.has(m.name)) continue;
      await q(m.sql);
      await q('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    }
    if (onFresh && applied.includes(ordered[0]?.name)) await onFresh(q);
    return applied;
  });
}
