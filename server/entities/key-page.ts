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

/** Must be the migrations' bucket width (015's key_buckets, 016's search_grams). */
const BUCKET = 1024;

/**
 * The statement of keys [skip, skip + take) in ascending key order (as `k`) of the rows
 * `FROM ... WHERE ...` reads, found from `buckets`, a statement of each bucket's `(bucket, n)`
 * (rows or matches per bucket, in one snapshot with the read): the buckets before the page's
 * first row are added up, and the key index is read from that bucket's first key, skipping
 * fewer than a bucket's rows. `also`: more columns of the answer's rows (read from `b`).
 */
export function bucketPageSql(o: {
  buckets: string;
  key: string;
  from: string;
  /** The rows' own condition (`WHERE ...`), or '' for every row. */
  where: string;
  skip: string;
  take: string;
  also?: string;
}): string {
  const { key, skip } = o;
  return `WITH b AS (${o.buckets}),
     c AS (SELECT bucket, n, (sum(n) OVER (ORDER BY bucket))::bigint - n AS before FROM b),
     s AS (SELECT bucket, before FROM c WHERE before <= ${skip}::bigint AND ${skip}::bigint < before + n ORDER BY bucket LIMIT 1)
     SELECT p.k${o.also ?? ''}
       FROM s, LATERAL (
         SELECT ${key} AS k ${o.from} ${o.where ? `${o.where} AND` : 'WHERE'} ${key} >= s.bucket * ${BUCKET}
          ORDER BY ${key} LIMIT ${o.take} OFFSET ${skip}::bigint - s.before) p`;
}

/** Keys [skip, skip + take) of `table` in ascending key order. */
export async function keysFrom(
  q: Query,
  table: string,
  key: string,
  skip: number,
  take: number,
): Promise<unknown[]> {
  const rows = await q<{ k: unknown; parts: number }>(
    bucketPageSql({
      buckets:
        'SELECT bucket, sum(n)::bigint AS n, count(*) AS parts FROM key_buckets WHERE entity_table = $1 GROUP BY bucket',
      key: ident(key),
      from: `FROM ${ident(table)}`,
      where: '',
      skip: '$2',
      take: '$3',
      also: ', (SELECT max(parts) FROM b)::int AS parts',
    }),
    [table, skip, take],
  );
  if ((rows[0]?.parts ?? 0) > COMPACT_AT) compactCounts(q, { table: 'key_buckets' }, table);
  return rows.map((r) => r.k);
}
