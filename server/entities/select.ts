/**
 * The SELECT that every read uses (list, get, lookups, delta): the row's own columns plus,
 * for each ref field with a `refName`, the parent's title joined under that name, e.g. series
 * rows carry class_name and subject_name. LEFT JOIN, because optional refs may be NULL. Each
 * set relation comes as a JSON list of ids under the relation's name (our extension: schools
 * carry `books`, the ids of the books assigned to them).
 * The row's table is aliased `t`; filters and ordering use `expr()` to name a column.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { parentNameColumn } from '../../src/contract/parent-names';
import type { EntityGraph } from './graph';
import { relationTables, setExpression } from './relation-table';
import { ident } from './sql';

export interface RowSelect {
  /** `SELECT t.*, … FROM table t LEFT JOIN …`, ready for a WHERE. */
  sql: string;
  /** `FROM table t LEFT JOIN …`: the same rows, for a query that selects less (keys of a page). */
  from: string;
  /** The columns after `t.*`: parents' names and sets (`, expr AS name, …`; empty when none). */
  extra: string;
  /** The parents' names of `extra` alone (for a read that takes the sets another way). */
  parentNames: string;
  /** The SQL expression of a row column: an own column or a joined parent name; else undefined. */
  expr(column: string): string | undefined;
}

export function rowSelect(entity: EntityDescription, graph: EntityGraph): RowSelect {
  const names = new Map<string, string>();
  const joins: string[] = [];
  for (const { field, spec, parent } of graph.parents(entity)) {
    if (!spec.refName) continue;
    if (spec.refName in entity.fields || spec.refName === entity.key)
      throw new Error(`${entity.name}.${field}: refName ${spec.refName} hides a column of its own`);
    const alias = ident(`p_${field}`);
    joins.push(
      `LEFT JOIN ${ident(parent.table)} ${alias} ON ${alias}.${ident(parent.key)} = t.${ident(field)}`,
    );
    // The name a row shows for its parent, defined once (src/contract/parent-names.ts).
    names.set(spec.refName, `${alias}.${ident(parentNameColumn(parent))}`);
  }
  const own = new Set([entity.key, ...Object.keys(entity.fields)]);
  const sets = relationTables(entity, graph).map((r) => `${setExpression(r)} AS ${ident(r.relation)}`);
  const parentNames = [...names].map(([name, expr]) => `, ${expr} AS ${ident(name)}`).join('');
  const extra = parentNames + sets.map((c) => `, ${c}`).join('');
  const from = `FROM ${ident(entity.table)} t ${joins.join(' ')}`;
  return {
    sql: `SELECT t.*${extra} ${from}`,
    from,
    extra,
    parentNames,
    expr: (column) => names.get(column) ?? (own.has(column) ? `t.${ident(column)}` : undefined),
  };
}
