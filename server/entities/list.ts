/**
 * The list endpoint: `{ success, [listField]: rows, total }`, total counting every row that
 * matches the search and filters. Rows carry their parents' names (select.ts).
 *
 * At 100,000 rows (issue 17) no page reads every row of the table whole:
 * - a page is chosen by keys alone (the key's or the order column's index; no parents' names,
 *   no assigned books), and only its rows are then read whole;
 * - a total known without counting (the whole table's, row-count.ts; a search of one to three
 *   characters without a filter, short-search.ts) lets a page past the middle read the order
 *   backwards, so the last page costs what the first does; deep in the key order, the key
 *   buckets (the whole table, key-page.ts) or the gram buckets (a short search,
 *   short-search.ts) find the page's first key instead of skipping every key before it;
 * - any other search or filter finds the page's keys and counts the matches in one pass; a
 *   search of three characters or more reads its column's trigram index (migrations/010) and
 *   then only the rows that may match.
 * Search keeps its meaning: case-insensitive substring (ILIKE), % and _ taken literally.
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database, Query } from '../db';
import { TEXT } from '../http/reply';
import { deltaPull } from './delta';
import { listFilters } from './filters';
import type { EntityGraph } from './graph';
import { type ApiHandler, ok, refuse } from './handler';
import { jsonRows } from './json-rows';
import { keysFrom } from './key-page';
import { listTotals } from './list-totals';
import { type ListParams, parseListParams } from './params';
import { tableTotal } from './row-count';
import { rowSelect } from './select';
import { addSetNames, wholeTableSets } from './set-names';
import { searchKeysFrom, shortSearchTotal } from './short-search';
import { escapeLike, ident, toWireRow, Where } from './sql';

type Row = Record<string, unknown>;
type Page = NonNullable<ListParams['page']>;
type Dir = 'asc' | 'desc';
/** Keys [skip, skip + take) of a list in ascending key order, found from counts per bucket. */
type BucketKeys = (q: Query, skip: number, take: number) => Promise<unknown[]>;

/** Below this many rows skipped, OFFSET over the key index costs less than adding up buckets. */
const KEY_BUCKET_FROM = 1024;

export function listHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  db: Database,
  options: { legacy: boolean },
): ApiHandler {
  const select = rowSelect(entity, graph);
  const filters = listFilters(entity, graph);
  const column = (name: string) => {
    const expr = select.expr(name);
    if (!expr) throw new Error(`${entity.name}: no column ${name} to order or search by`);
    return expr;
  };
  const key = column(entity.key);
  // ::text so that number columns can be searched too.
  const search = entity.list.search.map((f) => `${column(f)}::text ILIKE $? ESCAPE '\\'`);
  // Migration 015 counts the grams of every entity's own search fields, and the keys in buckets
  // of every entity keyed by a serial id (a key that is not a described field).
  const keyBuckets = !(entity.key in entity.fields);
  const gramSearch = entity.list.search.length > 0 && entity.list.search.every((f) => f in entity.fields);
  const listField = listFieldOf(entity);
  const totals = listTotals(entity, graph);
  const manyRows = jsonRows(entity, select);
  // The bare list: every row with its sets and their names, each set grouped once (set-names.ts).
  const sets = wholeTableSets(entity, graph);
  const everyRow = jsonRows(entity, {
    extra: select.parentNames + sets.columns,
    from: `${select.from} ${sets.joins}`,
  });

  /**
   * The total when it is known without reading the rows it counts (the whole table's, or a
   * short search's alone: short-search.ts; a filter beside it needs the count), with the
   * buckets that find a page deep in the key order where the entity's keys are counted in them.
   */
  async function knownTotal(q: Query, where: Where, text: string | undefined, filtered: boolean) {
    if (String(where) === '') {
      const total = await tableTotal(q, entity.table);
      const bucketKeys: BucketKeys | undefined = keyBuckets
        ? (q, skip, take) => keysFrom(q, entity.table, entity.key, skip, take)
        : undefined;
      return { total, bucketKeys };
    }
    if (!text || !gramSearch || filtered) return undefined;
    const total = await shortSearchTotal(q, entity.table, text);
    if (total === undefined) return undefined;
    const on = { table: entity.table, search: text, key, from: select.from, where };
    const bucketKeys: BucketKeys | undefined = keyBuckets
      ? (q, skip, take) => searchKeysFrom(q, on, skip, take)
      : undefined;
    return { total, bucketKeys };
  }

  // The key breaks ties so that pages never overlap or skip rows.
  const orderBy = (by: string, dir: Dir) => `ORDER BY ${column(by)} ${dir}, ${key} ${dir}`;

  /** The rows of these keys, whole (parents' names, sets), in the list's order. */
  const rowsOf = (q: Query, keys: unknown[], ordered: string): Promise<Row[]> =>
    keys.length === 0
      ? Promise.resolve([])
      : q<Row>(`${select.sql} WHERE ${key} = ANY($1) ${ordered}`, [keys]);

  /**
   * A page of `where`'s rows when their total is known without reading them: its keys from the
   * nearer end of the order (rows [offset, offset + limit) in the order asked are rows
   * [total - offset - limit, total - offset) in the reverse order; NULLs and the key's
   * tie-break reverse too), so the last page costs what the first does. Deep in the key order,
   * `bucketKeys` (the key buckets of the whole table, key-page.ts, or a short search's gram
   * buckets, short-search.ts) finds the page's keys in ascending order from its bucket.
   */
  async function knownTotalPage(
    q: Query,
    where: Where,
    known: { total: number; bucketKeys?: BucketKeys },
    page: Page,
    by: string,
    dir: Dir,
  ) {
    const { total, bucketKeys } = known;
    const { limit, offset } = page;
    const backwards = offset + limit / 2 > total / 2;
    const [skip, take] = backwards
      ? [Math.max(0, total - offset - limit), Math.max(0, Math.min(limit, total - offset))]
      : [offset, limit];
    if (take === 0) return { rows: [], total };
    const readDir = backwards ? flip(dir) : dir;
    const n = where.params.length;
    const keys =
      bucketKeys && by === entity.key && skip > KEY_BUCKET_FROM
        ? await bucketKeys(q, readDir === 'asc' ? skip : Math.max(0, total - skip - take), take)
        : (
            await q<{ k: unknown }>(
              `SELECT ${key} AS k ${select.from} ${where} ${orderBy(by, readDir)} LIMIT $${n + 1} OFFSET $${n + 2}`,
              [...where.params, take, skip],
            )
          ).map((r) => r.k);
    return { rows: await rowsOf(q, keys, orderBy(by, dir)), total };
  }

  /**
   * A page of the rows matching `where`: its keys and the number of matches from one pass over
   * the matches. MATERIALIZED keeps the planner from reading the key's index in order and
   * testing every row to serve the LIMIT: the count needs every match anyway, and the search's
   * index finds them best on its own.
   */
  async function matchingPage(q: Query, where: Where, page: Page, by: string, dir: Dir) {
    const n = where.params.length;
    const keys = await q<{ k: unknown; total: number }>(
      `WITH m AS MATERIALIZED (SELECT ${key} AS k, ${column(by)} AS o ${select.from} ${where})
       SELECT k, (SELECT count(*) FROM m) AS total FROM m ORDER BY o ${dir}, k ${dir}
       LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, page.limit, page.offset],
    );
    let total = keys[0]?.total ?? 0;
    // Past the last page no row carries the count.
    if (keys.length === 0 && page.offset > 0)
      [{ total }] = await q<{ total: number }>(
        `SELECT count(*) AS total FROM ${ident(entity.table)} t ${where}`,
        where.params,
      );
    return {
      rows: await rowsOf(
        q,
        keys.map((r) => r.k),
        orderBy(by, dir),
      ),
      total,
    };
  }

  return async ({ q, query }) => {
    const p = parseListParams(entity, query, options);
    if (!p) return refuse(400, TEXT.badListParams);
    // A delta pull is the whole table's changes: the offline copy holds every row.
    if (p.since !== undefined)
      return ok(await deltaPull(db, entity, manyRows, p.since, { limit: p.sinceLimit, count: p.sinceCount }));

    const where = new Where();
    if (p.search && search.length > 0) {
      const like = `%${escapeLike(p.search)}%`;
      where.add(`(${search.join(' OR ')})`, ...search.map(() => like));
    }
    const searchOnly = String(where);
    const refused = filters(query, where);
    if (refused) return refuse(400, refused);
    const filtered = String(where) !== searchOnly;

    const { column: by, dir } = p.order;
    if (!p.page) {
      // The bare list (dropdowns, full pulls of a legacy client): every matching row, as the
      // API sends it, in one JSON value.
      const rows = await everyRow(q, `${where} ${orderBy(by, dir)}`, where.params);
      return ok({ [listField]: rows, total: rows.length, ...(await totals(q)) });
    }
    // A total known without reading the rows it counts: the whole table's, or a short
    // search's alone (short-search.ts; a filter beside it needs the count).
    const known = await knownTotal(q, where, p.search, filtered);
    const result =
      known === undefined
        ? await matchingPage(q, where, p.page, by, dir)
        : await knownTotalPage(q, where, known, p.page, by, dir);
    await addSetNames(q, entity, graph, result.rows);
    return ok({
      [listField]: result.rows.map((r) => toWireRow(entity, r)),
      total: result.total,
      ...(await totals(q)),
    });
  };
}

const flip = (dir: Dir): Dir => (dir === 'asc' ? 'desc' : 'asc');
