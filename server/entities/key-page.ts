/**
 * The keys of a page deep in the key order without skipping every key before it (migration
 * 015): `key_buckets` counts an entity's rows per run of 1,024 ids, so the page's first row is
 * found by adding up the buckets (a hundred for 100,000 rows) and the key index is read from
 * its bucket's first id, skipping at most a bucket's rows. One statement, so the counts and the
 * keys are read in one snapshot.
 */
import type { Query } from '../db';
import { COMPACT_AT, compactCounts } from './compact-counts';
import { ident } from './sql';

/** Must be the migration's bucket width. */
const BUCKET = 1024;

/** Keys [skip, skip + take) of `table` in ascending key order. */
export async function keysFrom(
  q: Query,
  table: string,
  key: string,
  skip: number,
  take: number,
): Promise<unknown[]> {
  const k = ident(key);
  const rows = await q<{ k: unknown; parts: number }>(
    `WITH b AS (
       SELECT bucket, sum(n)::bigint AS n, count(*) AS parts FROM key_buckets WHERE entity_table = $1 GROUP BY bucket),
     c AS (SELECT bucket, n, (sum(n) OVER (ORDER BY bucket))::bigint - n AS before FROM b),
     s AS (SELECT bucket, before FROM c WHERE before <= $2::bigint AND $2::bigint < before + n ORDER BY bucket LIMIT 1)
     SELECT p.k, (SELECT max(parts) FROM b)::int AS parts
       FROM s, LATERAL (
         SELECT ${k} AS k FROM ${ident(table)} WHERE ${k} >= s.bucket * ${BUCKET}
          ORDER BY ${k} LIMIT $3 OFFSET $2::bigint - s.before) p`,
    [table, skip, take],
  );
  if ((rows[0]?.parts ?? 0) > COMPACT_AT) compactCounts(q, { table: 'key_buckets' }, table);
  return rows.map((r) => r.k);
}
