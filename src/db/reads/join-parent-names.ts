/**
 * Parents' names, joined from the local store rather than trusted from the rows: a record made
 * or renamed on this device shows its parents' current names before the server has seen either.
 * Lists show them in columns; selects use them to tell apart options that read the same. What
 * the name is, is defined once in contract/parent-names.ts.
 *
 * Only the parents the given rows name are read (one bulk read per parent entity): a page of a
 * list reads ten schools, not every school; the list worker hands over the names its indexes
 * already hold, and nothing is read. The list engine sorts and searches by the same
 * names from the parents' projections (list-engine/entity-index.ts).
 */
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { parentName, parentNameFields } from '../../contract/parent-names';
import type { LocalDb, Row } from '../database';

/** Parents' names already in memory, by parent entity (the list worker's indexes); undefined: read them. */
export type KnownNames = (parent: string) => ReadonlyMap<string, string> | undefined;

export async function withParentNames(
  db: LocalDb,
  entity: EntityDescription,
  rows: Row[],
  known: KnownNames = () => undefined,
): Promise<Row[]> {
  // Every parent's read asked at once (one round trip to the storage, not one per parent).
  const joins = await Promise.all(
    parentNameFields(entity).map(async ({ field, name, parent: parentEntity }) => {
      const inMemory = known(parentEntity);
      if (inMemory) return [field, name, inMemory] as const;
      const parent = entityByName(parentEntity);
      const ids = [...new Set(rows.map((r) => r[field]).filter((id) => typeof id === 'string' && id !== ''))];
      const found = await db.rows(parent).bulkGet(ids as string[]);
      const names = new Map(
        found.flatMap((p) => (p ? [[p[parent.key], parentName(parent, p)] as const] : [])),
      );
      return [field, name, names] as const;
    }),
  );
  if (joins.length === 0) return rows;
  return rows.map((row) => {
    const out = { ...row };
    for (const [field, name, names] of joins) {
      const shown = names.get(row[field] as string);
      if (shown !== undefined) out[name] = shown;
    }
    return out;
  });
}

/** Every record of an entity by id, with the name others show it by: for showing sets by name. */
export async function namesOf(db: LocalDb, entity: EntityDescription): Promise<Map<string, string>> {
  const rows = await db.rows(entity).toArray();
  return new Map(rows.map((r) => [String(r[entity.key]), parentName(entity, r)]));
}

/** The tables withParentNames reads (those whose names are not `known`), for a transaction's scope. */
export function parentTables(db: LocalDb, entity: EntityDescription, known: KnownNames = () => undefined) {
  return parentNameFields(entity)
    .filter(({ parent }) => !known(parent))
    .map(({ parent }) => db.rows(entityByName(parent)));
}
