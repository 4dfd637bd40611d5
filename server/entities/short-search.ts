/**
 * The total of a search of one to three characters without reading the rows it matches
 * (migration 015): the list's search is ILIKE '%text%', i.e. lower(field) contains lower(text),
 * and for a text of at most three characters that is exactly "lower(text) is one of the row's
 * grams". `search_grams` counts the rows holding each gram, so the total is a sum over that
 * gram's few rows (compact-counts.ts). Undefined for a longer text (the trigram index counts those).
 */
import type { Query } from '../db';
import { COMPACT_AT, compactCounts } from './compact-counts';

/** Longest search whose grams are counted (the migration's grams_of_row_sql). */
export const MAX_GRAM = 3;

export async function shortSearchTotal(q: Query, table: string, search: string): Promise<number | undefined> {
  // The database decides on lower(text)'s length; far longer texts need not ask.
  if ([...search].length > 2 * MAX_GRAM) return undefined;
  const [row] = await q<{ total: number | null; parts: number }>(
    `SELECT CASE WHEN char_length(lower($2)) BETWEEN 1 AND ${MAX_GRAM}
                 THEN coalesce(sum(n), 0)::bigint END AS total,
            count(*)::int AS parts
       FROM search_grams WHERE entity_table = $1 AND gram = lower($2)`,
    [table, search],
  );
  if (row.parts > COMPACT_AT) compactCounts(q, 'search_grams', 'gram', table);
  return row.total ?? undefined;
}
