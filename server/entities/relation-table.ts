/**
 * Where a set relation (`entity.relations`) lives: a join table named `{entity}_{relation}`
 * (school_books) with the owner's key column and the target's key column
 * (migrations/004_people.sql).
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { EntityGraph } from './graph';
import { ident } from './sql';

export interface RelationTable {
  name: string;
  /** The relation's name: the owner row's field holding the set on the wire. */
  relation: string;
  table: string;
  ownerColumn: string;
  target: EntityDescription;
  targetColumn: string;
}

export function relationTables(entity: EntityDescription, graph: EntityGraph): RelationTable[] {
  return Object.entries(entity.relations ?? {}).map(([relation, rel]) => {
    const target = graph.byName(rel.target);
    return {
      name: relation,
      relation,
      table: ident(`${entity.name}_${relation}`),
      ownerColumn: ident(entity.key),
      target,
      targetColumn: ident(target.key),
    };
  });
}

/** The SELECT expression of a set as a JSON list of ids, for the row alias `t`. */
export const setExpression = (r: RelationTable) =>
  `COALESCE((SELECT json_agg(j.${r.targetColumn} ORDER BY j.${r.targetColumn}) FROM ${r.table} j WHERE j.${r.ownerColumn} = t.${r.ownerColumn}), '[]'::json)`;
