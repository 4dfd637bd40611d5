/**
 * Counts kept as inserted changes (migration 015: `search_grams`, `key_buckets`): writers only
 * insert (+n, -n) rows, so they never wait for each other and never update one row over and
 * over; a reader sums the rows of what it counts. When it finds many, it compacts the entity's
 * rows into one per part (gram, bucket), in one statement that deletes the rows it sums, so a
 * change committed meanwhile is neither lost nor counted twice. Two compactions never wait for
 * each other (SKIP LOCKED: each takes the rows the other has not). It runs after the reply; a
 * failure is logged and the rows stay for the next.
 */
import type { Query } from '../db';
import { requestLog } from '../ops/context';
import { ident } from './sql';

/** More rows than this for one part (one gram, one bucket): compact. */
export const COMPACT_AT = 64;

/** Compacts `entityTable`'s rows of `counts` (columns entity_table, `part`, n), one per part. */
export function compactCounts(
  q: Query,
  counts: 'search_grams' | 'key_buckets',
  part: string,
  entityTable: string,
): void {
  const [c, p] = [ident(counts), ident(part)];
  const sql = `
    WITH gone AS (
      DELETE FROM ${c}
       WHERE ctid IN (SELECT ctid FROM ${c} WHERE entity_table = $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${p}, n)
    INSERT INTO ${c} (entity_table, ${p}, n)
    SELECT $1, ${p}, sum(n) FROM gone GROUP BY ${p} HAVING sum(n) <> 0`;
  void q(sql, [entityTable]).catch((err) =>
    requestLog().error({ err, table: entityTable, counts }, 'Compacting kept counts failed'),
  );
}
