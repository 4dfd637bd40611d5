/**
 * Parents' names, joined from the local store rather than trusted from the rows: a record made
 * or renamed on this device shows its parents' current names before the server has seen either.
 * Lists show them in columns; selects use them to tell apart options that read the same.
 *
 * Only the parents the given rows name are read (one bulk read per parent entity): a page of a
 * list reads ten schools, not every school. The list engine sorts and searches by the same
 * names from the parents' projections (list-engine/entity-index.ts).
 */
import { entityByName } from '../contract/entities';
import { type EntityDescription, refFields } from '../contract/entity';
import type { LocalDb, Row } from './database';

export async function withParentNames(db: LocalDb, entity: EntityDescription, rows: Row[]): Promise<Row[]> {
  const joins: [string, string, Map<unknown, unknown>][] = [];
  for (const [field, spec] of refFields(entity)) {
    if (!spec.refName) continue;
    const parent = entityByName(spec.ref);
    const ids = [...new Set(rows.map((r) => r[field]).filter((id) => typeof id === 'string' && id !== ''))];
    const found = await db.rows(parent).bulkGet(ids as string[]);
    const titles = new Map(found.flatMap((p) => (p ? [[p[parent.key], p[parent.title]] as const] : [])));
    joins.push([field, spec.refName, titles]);
  }
  if (joins.length === 0) return rows;
  return rows.map((row) => {
    const out = { ...row };
    for (const [field, name, titles] of joins) {
      const title = titles.get(row[field]);
      if (title !== undefined) out[name] = title;
    }
    return out;
  });
}

/** The tables withParentNames reads, for a transaction's scope. */
export function parentTables(db: LocalDb, entity: EntityDescription) {
  return refFields(entity).map(([, spec]) => db.rows(entityByName(spec.ref)));
}
