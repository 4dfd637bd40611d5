/**
 * The list endpoint: `{ success, [listField]: rows, total }`, total counting every row that
 * matches the search and filters. Rows carry their parents' names (select.ts).
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database } from '../db';
import { type ApiHandler, ok, refuse } from '../http/api';
import { TEXT } from '../http/reply';
import { deltaPull } from './delta';
import { listFilters } from './filters';
import type { EntityGraph } from './graph';
import { listTotals } from './list-totals';
import { parseListParams } from './params';
import { rowSelect } from './select';
import { addSetNames } from './set-names';
import { escapeLike, ident, toWireRow, Where } from './sql';

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

  return async ({ q, query }) => {
    const p = parseListParams(entity, query, options);
    if (!p) return refuse(400, TEXT.badListParams);
    // A delta pull is the whole table's changes: the offline copy holds every row.
    if (p.since !== undefined) return ok(await deltaPull(db, entity, select.sql, p.since));

    const where = new Where();
    if (p.search && search.length > 0) {
      const like = `%${escapeLike(p.search)}%`;
      where.add(`(${search.join(' OR ')})`, ...search.map(() => like));
    }
    const refused = filters(query, where);
    if (refused) return refuse(400, refused);

    const [{ total }] = await q<{ total: number }>(
      `SELECT count(*) AS total FROM ${ident(entity.table)} t ${where}`,
      where.params,
    );
    // The key breaks ties so that pages never overlap or skip rows.
    const dir = p.order.dir;
    let sql = `${select.sql} ${where} ORDER BY ${column(p.order.column)} ${dir}, ${key} ${dir}`;
    const params = [...where.params];
    if (p.page) {
      sql += ` LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
      params.push(p.page.limit, p.page.offset);
    }
    const rows = await q<Record<string, unknown>>(sql, params);
    await addSetNames(q, entity, graph, rows);
    return ok({ [listField]: rows.map((r) => toWireRow(entity, r)), total, ...(await totals(q)) });
  };
}
