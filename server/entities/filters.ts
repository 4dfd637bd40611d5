/**
 * The list filters of a description (`fetchseries.php?subject_id=`): the rows whose column
 * equals the id given. With `via`, the entity has no such column and a child links the two:
 * subjects of a class are those with a series of that class (api-contract §9 item 13).
 * A filter with `values` takes one of them (`fetchteachers.php?status=Disabled`). An empty or
 * absent parameter is no filter, so bare calls still return every row.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { parseWireId } from '../../src/contract/validation';
import type { EntityGraph } from './graph';
import { ident, idParam, type Where } from './sql';

/** Adds the filters present in the query to `where`; returns a message for a malformed id. */
export type ListFilters = (query: Record<string, string>, where: Where) => string | null;

export function listFilters(entity: EntityDescription, graph: EntityGraph): ListFilters {
  // Each filter as the condition it adds, checked against the descriptions at start.
  const filters = (entity.filters ?? []).map(({ param, via, values }) => {
    if (!via) {
      if (!(param in entity.fields)) throw new Error(`${entity.name}: filter ${param} is not a field`);
      if (values) return { param, values, condition: `t.${ident(param)} = $?` };
      return { param, condition: `t.${ident(param)} = ${idParam}` };
    }
    const link = graph.children(entity).find((c) => c.child.name === via);
    if (!link || !(param in link.child.fields))
      throw new Error(`${entity.name}: filter ${param} via ${via} has no link`);
    const v = ident(link.child.table);
    return {
      param,
      values: undefined,
      condition: `EXISTS (SELECT 1 FROM ${v} v WHERE v.${ident(link.field)} = t.${ident(entity.key)} AND v.${ident(param)} = ${idParam})`,
    };
  });

  return (query, where) => {
    for (const { param, values, condition } of filters) {
      const raw = query[param]?.trim();
      if (!raw) continue;
      if (values) {
        if (!values.includes(raw)) return `${param} must be one of ${values.join(', ')}`;
        where.add(condition, raw);
        continue;
      }
      const id = parseWireId(raw);
      if (id === null) return `Invalid ${param}`;
      where.add(condition, id);
    }
    return null;
  };
}
