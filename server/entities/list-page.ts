/**
 * A page of a list (`page` and `limit`) and its total, in standard SQL: the total is count(*)
 * of the rows the search and filters keep, then the page's keys are read in the list's order
 * with LIMIT and OFFSET, and only those rows are read whole (parents' names, sets). A search
 * (search.ts) of three characters or more is served by trigram GIN indexes; a shorter one
 * keeps most rows, which the order's index walk meets early, so the page's keys cost little
 * beside the count.
 *
 * The legacy request names a page by its number, not by the last key of the one before it, so
 * a deep page cannot be read by keyset: it is OFFSET over the order's index. With the total
 * known first, a page past the middle is read from the other end, so the last page costs what
 * the first does. The first page needs no total to be read: its keys and count are asked at
 * once.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { ListParams } from './params';
import type { RowSelect } from './select';
import type { Where } from './sql';

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

  const count = async (q: Query, where: Where) =>
    (await q<{ n: number }>(`SELECT count(*) AS n ${select.from} ${where}`, where.params))[0].n;

  /**
   * Rows [offset, offset + limit) in the order asked are rows [total - offset - limit,
   * total - offset) in the reverse order (NULLs and the key's tie-break reverse too): a page
   * past the middle is read from the other end.
   */
  const keysOf = (q: Query, where: Where, read: PageOrder, take: number, skip: number) => {
    const n = where.params.length;
    return q<{ k: unknown }>(
      `SELECT ${key} AS k ${select.from} ${where} ${orderBy(read)} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, take, skip],
    );
  };

  /** Keys of a page past the middle, read from the other end once the total is known. */
  const deepKeys = async (q: Query, where: Where, page: Page, order: PageOrder, total: number) => {
    const { limit, offset } = page;
    if (offset + limit / 2 <= total / 2) return keysOf(q, where, order, limit, offset);
    const take = Math.max(0, Math.min(limit, total - offset));
    if (take === 0) return [];
    const reverse = { by: order.by, dir: flip(order.dir) };
    return keysOf(q, where, reverse, take, Math.max(0, total - offset - limit));
  };

  /** The first page is read forwards whatever the total: its keys and count are asked at once. */
  const totalAndKeys = async (q: Query, where: Where, page: Page, order: PageOrder) => {
    if (page.offset === 0) return Promise.all([count(q, where), keysOf(q, where, order, page.limit, 0)]);
    const total = await count(q, where);
    return [total, await deepKeys(q, where, page, order, total)] as const;
  };

  return async (q, where, page, order) => {
    const [total, keys] = await totalAndKeys(q, where, page, order);
    return {
      rows: await rowsOf(
        q,
        keys.map((r) => r.k),
        order,
      ),
      total,
    };
  };
}
