/**
 * The number of rows of an entity table without counting them (migrations/010): statement
 * triggers keep one row per writing backend in `row_counts`, and the total is their sum.
 * Backends come and go (a pool closes idle connections), so once a table has more than
 * FOLD_AT such rows, those of backends that ended are folded into holder 0. The fold never
 * waits for a lock (SKIP LOCKED: a row being written is left for the next fold) and writers
 * never touch holder 0, so it cannot deadlock with them; it runs after the reply, in its own
 * statement.
 */
import type { Query } from '../db';
import { requestLog } from '../ops/context';

const FOLD_AT = 64;

const FOLD = `
  WITH gone AS (
    DELETE FROM row_counts
     WHERE (entity_table, holder) IN (
       SELECT entity_table, holder FROM row_counts
        WHERE entity_table = $1 AND holder <> 0
          AND holder NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
        FOR UPDATE SKIP LOCKED)
    RETURNING n)
  UPDATE row_counts SET n = n + (SELECT coalesce(sum(n), 0) FROM gone)
   WHERE entity_table = $1 AND holder = 0`;

export async function tableTotal(q: Query, table: string): Promise<number> {
  const [{ total, holders }] = await q<{ total: number; holders: number }>(
    'SELECT coalesce(sum(n), 0)::bigint AS total, count(*)::int AS holders FROM row_counts WHERE entity_table = $1',
    [table],
  );
  if (holders > FOLD_AT)
    void q(FOLD, [table]).catch((err) => requestLog().error({ err, table }, 'Folding the row counts failed'));
  return total;
}
