/**
 * The names of a set relation's records as one text per row, under the relation's
 * `namesColumn` (`assigned_books: 'Number Fun, Word World'`): what the original's teachers'
 * and students' lists render as they come (api-contract §3.10, §3.11, §9.8: rendered as a
 * React child, so it must be text, not a list). Our app reads the ids (the relation's own
 * field) and never this.
 *
 * One query per relation for the whole page, whatever its size (no query per row), and only
 * for whole lists: a delta pull is our app's and goes without it.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { EntityGraph } from './graph';
import { relationTables } from './relation-table';
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
