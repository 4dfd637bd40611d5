/**
 * The list endpoint: `{ success, [listField]: rows, total }`, total counting every row that
 * matches the search and filters. Rows carry their parents' names (select.ts). Search keeps
 * its meaning: case-insensitive substring (ILIKE) of any searched column, % and _ taken
 * literally. A page and its total are read by list-page.ts; a bare list is every matching row.
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database } from '../db';
import { TEXT } from '../http/reply';
import { deltaPull } from './delta';
import { listFilters } from './filters';
import type { EntityGraph } from './graph';
import { type ApiHandler, ok, refuse } from './handler';
import { jsonRows } from './json-rows';
import { listPage } from './list-page';
import { listTotals } from './list-totals';
import { parseListParams } from './params';
import { searchCondition } from './search';
import { rowSelect } from './select';
import { addSetNames, wholeTableSets } from './set-names';
import { toWireRow, Where } from './sql';

export function listHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  db: Database,
  options: { legacy: boolean },
): ApiHandler {
  const select = rowSelect(entity, graph);
  const column = (name: string) => {
    const expr = select.expr(name);
    if (!expr) throw new Error(`${entity.name}: no column ${name} to order or search by`);
    return expr;
  };
  const filters = listFilters(entity, graph);
  const search = searchCondition(entity.list.search.map(column), db);
  const page = listPage(entity, select, column);
  const listField = listFieldOf(entity);
  const totals = listTotals(entity, graph);
  const manyRows = jsonRows(entity, select);
  // The bare list: every row with its sets and their names, each set grouped once (set-names.ts).
  const sets = wholeTableSets(entity, graph);
  const everyRow = jsonRows(entity, {
    extra: select.parentNames + sets.columns,
    from: `${select.from} ${sets.joins}`,
  });

  return async ({ q, query }) => {
    const p = parseListParams(entity, query, options);
    if (!p) return refuse(400, TEXT.badListParams);
    // A delta pull is the whole table's changes: the offline copy holds every row.
    if (p.since !== undefined)
      return ok(await deltaPull(db, entity, manyRows, p.since, { limit: p.sinceLimit, count: p.sinceCount }));

    const where = new Where();
    await search(where, p.search);
    const refused = filters(query, where);
    if (refused) return refuse(400, refused);
    const order = { by: p.order.column, dir: p.order.dir };
    if (!p.page) {
      // The bare list (dropdowns, full pulls of a legacy client): every matching row, as the
      // API sends it, in one JSON value.
      const rows = await everyRow(
        q,
        `${where} ORDER BY ${column(order.by)} ${order.dir}, ${column(entity.key)} ${order.dir}`,
        where.params,
      );
      return ok({ [listField]: rows, total: rows.length, ...(await totals(q)) });
    }
    const result = await page(q, where, p.page, order);
    await addSetNames(q, entity, graph, result.rows);
    return ok({
      [listField]: result.rows.map((r) => toWireRow(entity, r)),
      total: result.total,
      ...(await totals(q)),
    });
  };
}
