/**
 * The names of a set relation's records as one text per row, under the relation's
 * `namesColumn` (`assigned_books: 'Number Fun, Word World'`): what the original's teachers'
 * and students' lists render as they come (api-contract §3.10, §3.11, §9.8: rendered as a
 * React child, so it must be text, not a list). Our app reads the ids (the relation's own
 * field) and never this.
 *
 * One query per relation for the whole page, whatever its size (no query per row), and only
 * for whole lists: a delta pull is our app's and goes without it. The bare list (every row)
 * reads them in its own query instead, grouped once over the relation's table
 * (wholeTableSets): looking up 100,000 owners one by one, for the ids and again for the
 * names, took most of its ~10 s at 100,000 teachers.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { EntityGraph } from './graph';
import { type RelationTable, relationTables } from './relation-table';
import { ident } from './sql';

/** Between the names in one cell. */
const SEPARATOR = ', ';

/** Adds each named relation's names to the rows (in place); rows without any get ''. */
export async function addSetNames(
  q: Query,
  entity: EntityDescription,
  graph: EntityGraph,
  rows: Record<string, unknown>[],
): Promise<void> {
  const named = relationTables(entity, graph).filter((r) => entity.relations?.[r.relation]?.namesColumn);
  if (named.length === 0 || rows.length === 0) return;
  const ids = rows.map((row) => Number(row[entity.key]));
  for (const r of named) {
    const column = entity.relations?.[r.relation]?.namesColumn as string;
    const title = ident(r.target.title);
    const found = await q<{ owner: number; names: string }>(
      `SELECT j.${r.ownerColumn} AS owner,
              string_agg(b.${title}, '${SEPARATOR}' ORDER BY b.${title}, b.${r.targetColumn}) AS names
         FROM ${r.table} j JOIN ${ident(r.target.table)} b ON b.${r.targetColumn} = j.${r.targetColumn}
        WHERE j.${r.ownerColumn} = ANY($1::int[])
        GROUP BY j.${r.ownerColumn}`,
      [ids],
    );
    const byOwner = new Map(found.map((f) => [Number(f.owner), f.names]));
    for (const row of rows) row[column] = byOwner.get(Number(row[entity.key])) ?? '';
  }
}

/**
 * The sets (ids, as setExpression gives them) and the named relations' names of every row,
 * for a read of the whole table: `columns` for the SELECT list (`, … AS books, … AS
 * assigned_books`), `joins` for after its FROM. Each relation's table is grouped once by owner
 * and joined by hash, instead of a subquery per row.
 */
export function wholeTableSets(
  entity: EntityDescription,
  graph: EntityGraph,
): { columns: string; joins: string } {
  const columns: string[] = [];
  const joins: string[] = [];
  relationTables(entity, graph).forEach((r: RelationTable, i) => {
    const alias = ident(`s_${i}`);
    const namesColumn = entity.relations?.[r.relation]?.namesColumn;
    const title = ident(r.target.title);
    const names = namesColumn
      ? `, string_agg(b.${title}, '${SEPARATOR}' ORDER BY b.${title}, b.${r.targetColumn}) AS names`
      : '';
    const target = namesColumn
      ? `JOIN ${ident(r.target.table)} b ON b.${r.targetColumn} = j.${r.targetColumn}`
      : '';
    joins.push(
      `LEFT JOIN (SELECT j.${r.ownerColumn} AS owner, json_agg(j.${r.targetColumn} ORDER BY j.${r.targetColumn}) AS ids${names}
         FROM ${r.table} j ${target} GROUP BY j.${r.ownerColumn}) ${alias} ON ${alias}.owner = t.${r.ownerColumn}`,
    );
    columns.push(`COALESCE(${alias}.ids, '[]'::json) AS ${ident(r.relation)}`);
    if (namesColumn) columns.push(`COALESCE(${alias}.names, '') AS ${ident(namesColumn)}`);
  });
  return { columns: columns.map((c) => `, ${c}`).join(''), joins: joins.join(' ') };
}
