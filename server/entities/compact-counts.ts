/**
 * Counts kept as inserted changes (migration 015: `search_grams`, `key_buckets`): writers only
 * insert (+n, -n) rows, so they never wait for each other and never update one row over and
 * over; a reader sums the rows of what it counts. When it finds many, it compacts the entity's
 * rows into one per part (gram and bucket, bucket), in one statement that deletes the rows it
 * sums, so a change committed meanwhile is neither lost nor counted twice. Two compactions never
 * wait for each other (SKIP LOCKED: each takes the rows the other has not). It runs after the
 * reply; a failure is logged and the rows stay for the next.
 */
import type { Query } from '../db';
import { requestLog } from '../ops/context';

/** More rows than this for one part (one gram's bucket, one key bucket): compact. */
export const COMPACT_AT = 64;

type Counts = { table: 'search_grams'; search: string } | { table: 'key_buckets' };

/**
 * Compacts `entityTable`'s rows of `counts`, one per part: for search grams only the searched gram
 * (a table's grams are a row per gram and bucket, hundreds of thousands for 100,000 names).
 */
export function compactCounts(q: Query, counts: Counts, entityTable: string): void {
  const [c, parts, only, params] =
    counts.table === 'search_grams'
      ? ['search_grams', 'gram, bucket', 'AND gram = lower($2)', [entityTable, counts.search]]
      : ['key_buckets', 'bucket', '', [entityTable]];
  const sql = `
    WITH gone AS (
      DELETE FROM ${c}
       WHERE ctid IN (SELECT ctid FROM ${c} WHERE entity_table = $1 ${only} FOR UPDATE SKIP LOCKED)
      RETURNING ${parts}, n)
    INSERT INTO ${c} (entity_table, ${parts}, n)
    SELECT $1, ${parts}, sum(n) FROM gone GROUP BY ${parts} HAVING sum(n) <> 0`;
  void q(sql, params).catch((err) =>
    requestLog().error({ err, table: entityTable, counts: c }, 'Compacting kept counts failed'),
  );
}
