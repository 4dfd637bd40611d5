/**
 * The search-gram log (migration 016): writes insert their rows' search texts there (+1 the new,
 * -1 the old) and `merge_search_grams` counts them into `search_grams`, in one statement that
 * deletes the log rows it counts (SKIP LOCKED: merges never wait for each other), so a text is
 * never lost nor counted twice. Readers count the log beside the merged counts
 * (short-search.ts); a reader that finds it long merges it after its reply, and the server's
 * upkeep merges every table's log every few minutes (server/app/start.ts), so a table written often
 * and never searched does not pile it up. A failure is logged and the log stays for the next.
 */
import type { Query } from '../db';
import { requestLog } from '../ops/context';

/** More log rows than this for one table: a reader merges them (each read scans them). */
export const MERGE_AT = 512;

/** How often the upkeep merges every table's log. */
export const MERGE_EVERY_MS = 5 * 60 * 1000;

/**
 * The log's dead rows removed after a merge: PGlite has no autovacuum, and every read of a
 * short search scans the log (on PostgreSQL autovacuum would come later; this costs little).
 */
const VACUUM_LOG = 'VACUUM search_gram_log';

/** One table's log counted into its grams (one statement: migration 016's function). */
const mergeTable = (q: Query, entityTable: string) => q('SELECT merge_search_grams($1)', [entityTable]);

/** Merges `entityTable`'s log, after the reply. */
export function mergeSearchGrams(q: Query, entityTable: string): void {
  void mergeTable(q, entityTable)
    .then(() => q(VACUUM_LOG))
    .catch((err) => requestLog().error({ err, table: entityTable }, 'Merging the search-gram log failed'));
}

/** Merges every table's log (the upkeep): one statement per table that has one. */
export async function mergeAllSearchGrams(q: Query): Promise<void> {
  const tables = await q<{ t: string }>('SELECT DISTINCT entity_table AS t FROM search_gram_log');
  for (const { t } of tables) await mergeTable(q, t);
  if (tables.length > 0) await q(VACUUM_LOG);
}
