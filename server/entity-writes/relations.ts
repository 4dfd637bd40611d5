/**
 * The checks and follow-ups a write needs because of parents and children, all inside the
 * request's transaction.
 *
 * Races: a write that names a parent locks that parent FOR KEY SHARE; a delete locks its row
 * FOR UPDATE before looking for children. The two locks conflict, so a child added while the
 * parent is being deleted is either seen by the delete's check (409) or waits for the delete
 * to commit and then finds no parent (400): never a foreign-key error surfacing as a 500.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { stillUsedRefusalOf } from '../../src/contract/still-used';
import type { Query } from '../db';
import type { EntityGraph } from '../entities/graph';
import { ident } from '../entities/sql';

type Columns = Record<string, unknown>;

/**
 * The refusal for the first ref in `cols` naming no existing parent, e.g. 'Class does not
 * exist'. One statement asks every parent named at once (statements are what a write costs
 * most on PGlite), each probe locking what it finds.
 */
export async function missingParent(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  cols: Columns,
): Promise<string | null> {
  const named = graph
    .parents(entity)
    .filter(({ field }) => cols[field] !== undefined && cols[field] !== null);
  if (named.length === 0) return null;
  const probes = named.map(
    ({ parent }, i) =>
      // ::bigint: a well-formed id beyond int4 is simply not found (see idParam).
      `(SELECT 1 FROM ${ident(parent.table)} WHERE ${ident(parent.key)} = $${i + 1}::bigint FOR KEY SHARE) AS found_${i}`,
  );
  const [row] = await q<Record<string, unknown>>(
    `SELECT ${probes.join(', ')}`,
    named.map(({ field }) => cols[field]),
  );
  const missing = named.findIndex((_, i) => row[`found_${i}`] === null);
  return missing < 0 ? null : `${named[missing].spec.label} does not exist`;
}

/**
 * Deletes the row, unless rows of a child entity still name it: then the refusal (the first
 * such entity) and nothing deleted. One statement asks every child table and deletes (a delete
 * of a class asked seven tables, one by one, then deleted); each table gets its own parameter,
 * so each column's type is inferred alone. The row is locked before (remove.ts), so the
 * statement's snapshot sees every child committed before the lock was granted.
 */
export async function deleteUnlessUsed(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  id: string,
): Promise<string | null> {
  const children = graph.children(entity);
  const probes = children.map(
    ({ child, field }, i) =>
      `(SELECT 1 FROM ${ident(child.table)} WHERE ${ident(field)} = $${i + 2} LIMIT 1) AS used_${i}`,
  );
  const unused = children.map((_, i) => `used_${i} IS NULL`).join(' AND ') || 'true';
  const [row] = await q<Record<string, unknown>>(
    `WITH used AS (SELECT ${probes.join(', ') || '1 AS nothing'}),
     gone AS (DELETE FROM ${ident(entity.table)} WHERE ${ident(entity.key)} = $1
       AND (SELECT ${unused} FROM used) RETURNING 1)
     SELECT used.*, (SELECT count(*) FROM gone) AS gone FROM used`,
    [id, ...children.map(() => id)],
  );
  return stillUsedRefusalOf(entity, children, (_, i) => row[`used_${i}`] !== null);
}

/**
 * After a rename: every row that shows this row's title gets a new rev (the tracking trigger
 * sets it on any UPDATE), so that a delta pull brings children with the new name too. Given as
 * WITH clauses for the rename's own UPDATE (data-modifying WITH clauses all run to completion),
 * each with its own parameter from `$first` on, each to be given the row's id.
 */
export function childTouches(graph: EntityGraph, entity: EntityDescription, first: number): string[] {
  const shown = graph.children(entity).filter(({ child, field }) => child.fields[field].refName);
  return shown.map(({ child, field }, i) => {
    const col = ident(field);
    return `touched_${i} AS (UPDATE ${ident(child.table)} SET ${col} = ${col} WHERE ${col} = $${first + i} RETURNING 1)`;
  });
}
