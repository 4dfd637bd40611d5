/**
 * Cascade helpers (`entity.lookups`, api-contract §3.5-3.8): GET with ids in the query,
 * replying `{ success, [listField]: rows }` with the rows whose columns equal every id given,
 * e.g. fetchseriesforbooks.php?class_id=1&subject_id=2. Every parameter must be sent: a
 * missing one or a malformed id is a 400. An optional ref sent empty matches NULL (Add Chapter
 * asks for units with section_id='' when no section is chosen).
 */
import { listFieldOf } from '../../src/contract/endpoints';
import { type EntityDescription, type Lookup, splitPath } from '../../src/contract/entity';
import { parseWireId } from '../../src/contract/validation';
import type { EntityGraph } from './graph';
import { type ApiHandler, ok, refuse } from './handler';
import { rowSelect } from './select';
import { ident, idParam, toWireRow, Where } from './sql';

export function lookupHandler(entity: EntityDescription, graph: EntityGraph, lookup: Lookup): ApiHandler {
  const select = rowSelect(entity, graph);
  const params = lookup.params.map((param) => {
    const spec = entity.fields[param];
    if (spec?.kind !== 'ref')
      throw new Error(`${splitPath(lookup.path).path}: parameter ${param} is not a ref field`);
    return { param, column: `t.${ident(param)}`, optional: !spec.required };
  });
  const { field, dir } = entity.list.sort;
  const sortBy = select.expr(field);
  if (!sortBy) throw new Error(`${entity.name}: no column ${field} to order by`);
  // The list's default order, the key breaking ties.
  const order = `ORDER BY ${sortBy} ${dir}, t.${ident(entity.key)} ${dir}`;

  const listField = listFieldOf(entity);

  return async ({ q, query }) => {
    const where = new Where();
    for (const { param, column, optional } of params) {
      const raw = query[param]?.trim();
      if (raw === undefined) return refuse(400, `${param} is required`);
      if (raw === '' && optional) {
        where.add(`${column} IS NULL`);
        continue;
      }
      const id = parseWireId(raw);
      if (id === null) return refuse(400, `Invalid ${param}`);
      where.add(`${column} = ${idParam}`, id);
    }
    const rows = await q<Record<string, unknown>>(`${select.sql} ${where} ${order}`, where.params);
    return ok({ [listField]: rows.map((r) => toWireRow(entity, r)) });
  };
}
