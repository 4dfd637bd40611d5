/**
 * A page of a list (`page` and `limit`) and its total, in standard SQL: the total is count(*)
 * of the rows the search and filters keep, and the page's keys are read in the list's order
 * with LIMIT and OFFSET, then only those rows are read whole (parents' names, sets). A search
 * is ILIKE on the searched columns, which their trigram GIN indexes (migrations/010) serve for
 * three characters or more; a shorter one keeps most rows, and one pass over them both counts
 * and pages them.
 *
 * The legacy request names a page by its number, not by the last key of the one before it, so
 * a deep page cannot be read by keyset: it is OFFSET over the order's index. Over the whole
 * table the total comes first, and a page past the middle is read from the other end of the
 * index, so the last page costs what the first does.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { ListParams } from './params';
import type { RowSelect } from './select';
import { ident, type Where } from './sql';

type Row = Record<string, unknown>;
export type Page = NonNullable<ListParams['page']>;
export type Dir = 'asc' | 'desc';
export type PageOrder = { by: string; dir: Dir };
export type ListPage = (
  q: Query,
  where: Where,
  page: Page,
  order: PageOrder,
) => Promise<{ rows: Row[]; total: number }>;

const flip = (dir: Dir): Dir => (dir === 'asc' ? 'desc' : 'asc');

/** The page reader of an entity's list; `column` is the SQL of a row column (select.ts). */
export function listPage(
  entity: EntityDescription,
  select: RowSelect,
  column: (name: string) => string,
): ListPage {
  const key = column(entity.key);
  // The key breaks ties so that pages never overlap or skip rows.
  const orderBy = ({ by, dir }: PageOrder) => `ORDER BY ${column(by)} ${dir}, ${key} ${dir}`;

  /** The rows of these keys, whole (parents' names, sets), in the list's order. */
  const rowsOf = (q: Query, keys: unknown[], order: PageOrder): Promise<Row[]> =>
    keys.length === 0
      ? Promise.resolve([])
      : q<Row>(`${select.sql} WHERE ${key} = ANY($1) ${orderBy(order)}`, [keys]);

  const countAll = async (q: Query) =>
    (await q<{ n: number }>(`SELECT count(*) AS n FROM ${ident(entity.table)}`))[0].n;

  /**
   * A page of every row: rows [offset, offset + limit) in the order asked are rows
   * [total - offset - limit, total - offset) in the reverse order (NULLs and the key's
   * tie-break reverse too), read from whichever end is nearer.
   */
  async function wholeTablePage(q: Query, page: Page, order: PageOrder) {
    const total = await countAll(q);
    const { limit, offset } = page;
    const backwards = offset + limit / 2 > total / 2;
    const [skip, take] = backwards
      ? [Math.max(0, total - offset - limit), Math.max(0, Math.min(limit, total - offset))]
      : [offset, limit];
    if (take === 0) return { rows: [], total };
    const read = backwards ? { by: order.by, dir: flip(order.dir) } : order;
    const keys = await q<{ k: unknown }>(
      `SELECT ${key} AS k ${select.from} ${orderBy(read)} LIMIT $1 OFFSET $2`,
      [take, skip],
    );
    return {
      rows: await rowsOf(
        q,
        keys.map((r) => r.k),
        order,
      ),
      total,
    };
  }

  /**
   * A page of the rows `where` keeps: its keys and the number of matches from one pass over
   * the matches. MATERIALIZED keeps the planner from reading the order's index and testing
   * every row to serve the LIMIT: the count needs every match anyway, and the search's index
   * finds them best on its own.
   */
  async function matchingPage(q: Query, where: Where, page: Page, order: PageOrder) {
    const n = where.params.length;
    const keys = await q<{ k: unknown; total: number }>(
      `WITH m AS MATERIALIZED (SELECT ${key} AS k, ${column(order.by)} AS o ${select.from} ${where})
       SELECT k, (SELECT count(*) FROM m) AS total FROM m ORDER BY o ${order.dir}, k ${order.dir}
       LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, page.limit, page.offset],
    );
    let total = keys[0]?.total ?? 0;
    // Past the last page no row carries the count.
    if (keys.length === 0 && page.offset > 0)
      [{ total }] = await q<{ total: number }>(
        `SELECT count(*) AS total ${select.from} ${where}`,
        where.params,
      );
    return {
      rows: await rowsOf(
        q,
        keys.map((r) => r.k),
        order,
      ),
      total,
    };
  }

  return (q, where, page, order) =>
    String(where) === '' ? wholeTablePage(q, page, order) : matchingPage(q, where, page, order);
}
