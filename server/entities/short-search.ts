/**
 * Searches of one to three characters without reading the rows they match (migrations 015,
 * 016): the list's search is ILIKE '%text%', i.e. lower(field) contains lower(text), and for a
 * text of at most three characters that is exactly "lower(text) is one of the row's grams".
 * `search_grams` counts the rows holding each gram per bucket of 1,024 keys, and
 * `search_gram_log` holds the texts written since its last merge (gram-log.ts); a gram's count
 * is the sum of its rows there plus the log's rows holding it, read in one statement (one
 * snapshot), so it is exact whatever was merged or not. The total is that sum; a page deep in
 * the key order starts from the bucket its first match is in.
 */
import type { Query } from '../db';
import { COMPACT_AT, compactCounts } from './compact-counts';
import { MERGE_AT, mergeSearchGrams } from './gram-log';
import { bucketPageSql } from './key-page';
import type { Where } from './sql';

/** Longest search whose grams are counted (the migration's grams_of_row_sql). */
export const MAX_GRAM = 3;

/**
 * A gram's count per bucket, merged and logged ($1 the table, $2 the search), as `b (bucket, n)`:
 * a log row counts when one of its texts holds the gram (strpos on the lower case: the grams'
 * meaning, without cutting the log's texts into grams).
 */
const gramBuckets = (t: string, s: string) => `
  SELECT bucket, sum(n)::bigint AS n FROM (
    SELECT bucket, n FROM search_grams WHERE entity_table = ${t} AND gram = lower(${s})
    UNION ALL
    SELECT bucket, s FROM search_gram_log l
     WHERE entity_table = ${t} AND EXISTS (SELECT FROM unnest(l.v) AS u(txt) WHERE strpos(lower(u.txt), lower(${s})) > 0)
  ) x GROUP BY bucket`;

/** The total of a short search; undefined for a longer text (the trigram index counts those). */
export async function shortSearchTotal(q: Query, table: string, search: string): Promise<number | undefined> {
  // The database decides on lower(text)'s length; far longer texts need not ask.
  if ([...search].length > 2 * MAX_GRAM) return undefined;
  // Nothing is read for a longer text (the CASE): the trigram path must not pay for the log.
  const [row] = await q<{ total: number | null; parts: number | null; logged: number | null }>(
    `WITH short AS (SELECT char_length(lower($2)) BETWEEN 1 AND ${MAX_GRAM} AS yes)
     SELECT CASE WHEN yes THEN (SELECT coalesce(sum(n), 0) FROM (${gramBuckets('$1', '$2')}) b)::bigint END AS total,
            CASE WHEN yes THEN (SELECT coalesce(max(c), 0) FROM (
              SELECT count(*) AS c FROM search_grams WHERE entity_table = $1 AND gram = lower($2) GROUP BY bucket) p)::int END AS parts,
            CASE WHEN yes THEN (SELECT count(*) FROM search_gram_log WHERE entity_table = $1)::int END AS logged
       FROM short`,
    [table, search],
  );
  if ((row.logged ?? 0) > MERGE_AT) mergeSearchGrams(q, table);
  else if ((row.parts ?? 0) > COMPACT_AT) compactCounts(q, { table: 'search_grams', search }, table);
  return row.total ?? undefined;
}

/**
 * Keys [skip, skip + take) in ascending key order of the rows `where` (the short search alone)
 * finds: the gram's buckets are added up to the one the page starts in, and the rows are read
 * from that bucket's first key, skipping fewer than a bucket's matches (OFFSET over the whole
 * search read every match before the page: 120-640 ms for a middle page of "a" at 100,000).
 */
export async function searchKeysFrom(
  q: Query,
  on: { table: string; search: string; key: string; from: string; where: Where },
  skip: number,
  take: number,
): Promise<unknown[]> {
  const n = on.where.params.length;
  const [t, s, sk, tk] = [n + 1, n + 2, n + 3, n + 4].map((i) => `$${i}`);
  const rows = await q<{ k: unknown }>(
    bucketPageSql({
      buckets: gramBuckets(t, s),
      key: on.key,
      from: on.from,
      where: String(on.where),
      skip: sk,
      take: tk,
    }),
    [...on.where.params, on.table, on.search, skip, take],
  );
  return rows.map((r) => r.k);
}
