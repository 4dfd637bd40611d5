/**
 * Counters kept per writing backend (`holder` = the backend's pid, migrations 010 and 015): a
 * writer only ever adds to its own rows, so writers never wait for each other. Backends come
 * and go (a pool closes idle connections), so a reader that finds many holders folds the rows
 * of backends that ended into holder 0. The fold never waits for a lock (SKIP LOCKED: a row
 * being written is left for the next fold) and writers never touch holder 0, so it cannot
 * deadlock with them; it runs after the reply, in its own statement, and a failure is logged.
 */
import type { Query } from '../db';
import { requestLog } from '../ops/context';
import { ident } from './sql';

/** More holders than this for one counter (or one table, for key buckets): fold. */
export const FOLD_AT = 64;

/**
 * Folds the ended holders of `entityTable`'s counters in `counters` (a table keyed by
 * `(entity_table, <part>, holder)` with a count `n`) into holder 0, part by part.
 */
export function foldHolders(q: Query, counters: string, part: string, entityTable: string): void {
  const [c, p] = [ident(counters), ident(part)];
  const sql = `
    WITH gone AS (
      DELETE FROM ${c}
       WHERE (entity_table, ${p}, holder) IN (
         SELECT entity_table, ${p}, holder FROM ${c}
          WHERE entity_table = $1 AND holder <> 0
            AND holder NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
          FOR UPDATE SKIP LOCKED)
      RETURNING ${p}, n)
    INSERT INTO ${c} (entity_table, ${p}, holder, n)
    SELECT $1, ${p}, 0, sum(n) FROM gone GROUP BY ${p} ORDER BY ${p}
    ON CONFLICT (entity_table, ${p}, holder) DO UPDATE SET n = ${c}.n + EXCLUDED.n`;
  void q(sql, [entityTable]).catch((err) =>
    requestLog().error({ err, table: entityTable, counters }, 'Folding counters of ended writers failed'),
  );
}
