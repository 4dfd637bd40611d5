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

/** The refusal for the first ref in `cols` naming no existing parent, e.g. 'Class does not exist'. */
export async function missingParent(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  cols: Columns,
): Promise<string | null> {
  for (const { field, spec, parent } of graph.parents(entity)) {
    const id = cols[field];
    if (id === undefined || id === null) continue;
    const found = await q(
      // ::bigint: a well-formed id beyond int4 is simply not found (see idParam).
      `SELECT 1 FROM ${ident(parent.table)} WHERE ${ident(parent.key)} = $1::bigint FOR KEY SHARE`,
      [id],
    );
    if (found.length === 0) return `${spec.label} does not exist`;
  }
  return null;
}

/**
 * The refusal when rows of a child entity still name this row (the first such entity). One
 * statement asks every child table at once (a delete of a class asked seven, one by one, and
 * statements are what a write costs most on PGlite); each table gets its own parameter, so
 * each column's type is inferred alone.
 */
export async function blockingChildren(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  id: string,
): Promise<string | null> {
  const children = graph.children(entity);
  if (children.length === 0) return null;
  const probes = children.map(
    ({ child, field }, i) =>
      `(SELECT 1 FROM ${ident(child.table)} WHERE ${ident(field)} = $${i + 1} LIMIT 1) AS used_${i}`,
  );
  const [row] = await q<Record<string, unknown>>(
    `SELECT ${probes.join(', ')}`,
    children.map(() => id),
  );
  return stillUsedRefusalOf(entity, children, (_, i) => row[`used_${i}`] !== null);
}

/**
 * After a rename: give every row that shows this row's title a new rev (the tracking trigger
 * sets it on any UPDATE), so that a delta pull brings children with the new name too. One
 * statement for every child table (data-modifying WITH clauses all run to completion).
 */
export async function touchChildren(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  id: string,
): Promise<void> {
  const shown = graph.children(entity).filter(({ child, field }) => child.fields[field].refName);
  if (shown.length === 0) return;
  const updates = shown.map(({ child, field }, i) => {
    const col = ident(field);
    return `touched_${i} AS (UPDATE ${ident(child.table)} SET ${col} = ${col} WHERE ${col} = $${i + 1} RETURNING 1)`;
  });
  await q(
    `WITH ${updates.join(', ')} SELECT 1`,
    shown.map(() => id),
  );
}
