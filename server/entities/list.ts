/**
 * The list endpoint: `{ success, [listField]: rows, total }`, total counting every row that
 * matches the search and filters. Rows carry their parents' names (select.ts).
 *
 * At 100,000 rows (issue 17) no page reads every row of the table whole:
 * - a page is chosen by keys alone (the key's or the order column's index; no parents' names,
 *   no assigned books), and only its rows are then read whole;
 * - without a search or filter, the total is the maintained row count (row-count.ts), and a
 *   page past the middle reads the order backwards, so the last page costs what the first
 *   does (the middle is the farthest any page is from an end);
 * - with a search or filter, one pass over the matches finds the page's keys and counts them; a search
 *   of three characters or more reads its column's trigram index (migrations/010) and then
 *   only the rows that may match. One or two characters match much of the table and no
 *   trigram can narrow them: those scan it.
 * Search keeps its meaning: case-insensitive substring (ILIKE), % and _ taken literally.
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database, Query } from '../db';
import { type ApiHandler, ok, refuse } from '../http/api';
import { TEXT } from '../http/reply';
import { deltaPull } from './delta';
import { listFilters } from './filters';
import type { EntityGraph } from './graph';
import { jsonRows } from './json-rows';
import { listTotals } from './list-totals';
import { type ListParams, parseListParams } from './params';
import { tableTotal } from './row-count';
import { rowSelect } from './select';
import { addSetNames, wholeTableSets } from './set-names';
import { escapeLike, ident, toWireRow, Where } from './sql';

type Row = Record<string, unknown>;
type Page = NonNullable<ListParams['page']>;
type Dir = 'asc' | 'desc';

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
  const listField = listFieldOf(entity);
  const totals = listTotals(entity, graph);
  const manyRows = jsonRows(entity, select);
  // The bare list: every row with its sets and their names, each set grouped once (set-names.ts).
  const sets = wholeTableSets(entity, graph);
  const everyRow = jsonRows(entity, {
    extra: select.parentNames + sets.columns,
    from: `${select.from} ${sets.joins}`,
  });

  // The key breaks ties so that pages never overlap or skip rows.
  const orderBy = (by: string, dir: Dir) => `ORDER BY ${column(by)} ${dir}, ${key} ${dir}`;

  /** The rows of these keys, whole (parents' names, sets), in the list's order. */
  const rowsOf = (q: Query, keys: unknown[], ordered: string): Promise<Row[]> =>
    keys.length === 0
      ? Promise.resolve([])
      : q<Row>(`${select.sql} WHERE ${key} = ANY($1) ${ordered}`, [keys]);

  /** A page of the whole table: the total without counting, the keys from the nearer end. */
  async function wholeTablePage(q: Query, page: Page, by: string, dir: Dir) {
    const total = await tableTotal(q, entity.table);
    const { limit, offset } = page;
    const backwards = offset + limit / 2 > total / 2;
    // Rows [offset, offset + limit) in the order asked are rows [total - offset - limit,
    // total - offset) in the reverse order (NULLs and the key's tie-break reverse too).
    const [skip, take] = backwards
      ? [Math.max(0, total - offset - limit), Math.max(0, Math.min(limit, total - offset))]
      : [offset, limit];
    if (take === 0) return { rows: [], total };
    const keys = await q<{ k: unknown }>(
      `SELECT ${key} AS k ${select.from} ${orderBy(by, backwards ? flip(dir) : dir)} LIMIT $1 OFFSET $2`,
      [take, skip],
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
    const refused = filters(query, where);
    if (refused) return refuse(400, refused);

    const { column: by, dir } = p.order;
    if (!p.page) {
      // The bare list (dropdowns, full pulls of a legacy client): every matching row, as the
      // API sends it, in one JSON value.
      const rows = await everyRow(q, `${where} ${orderBy(by, dir)}`, where.params);
      return ok({ [listField]: rows, total: rows.length, ...(await totals(q)) });
    }
    const result =
      String(where) === ''
        ? await wholeTablePage(q, p.page, by, dir)
        : await matchingPage(q, where, p.page, by, dir);
    await addSetNames(q, entity, graph, result.rows);
    return ok({
      [listField]: result.rows.map((r) => toWireRow(entity, r)),
      total: result.total,
      ...(await totals(q)),
    });
  };
}

const flip = (dir: Dir): Dir => (dir === 'asc' ? 'desc' : 'asc');
