/**
 * Reads of set relations on the local store: the names of a record's set (Assigned Books in
 * the lists), and how many records of each owning entity name a record (a book's delete
 * confirmation says to how many schools, teachers and students it is assigned).
 */
import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { setLinks } from '../../contract/still-used';
import type { LocalDb } from '../database';
import { namesOf, parentTables, withParentNames } from './join-parent-names';

/** Every record of an entity by id, with its name (join-parent-names.ts): for showing sets by name. */
export const titlesOf = namesOf;

/** For each entity holding `entity`'s ids in a set: how many of its records hold `id`. */
export async function holders(
  db: LocalDb,
  entity: EntityDescription,
  id: string,
): Promise<{ entity: EntityDescription; count: number }[]> {
  const out: { entity: EntityDescription; count: number }[] = [];
  for (const { owner, relation } of setLinks(entity, entities))
    out.push({ entity: owner, count: await db.rows(owner).where(relation).equals(id).count() });
  return out;
}

/**
 * Keeps a set read from the server on the record, as a pull would: not when a change of the
 * record waits in the outbox (the administrator's change stands until the server has it).
 */
export async function keepServerSet(
  db: LocalDb,
  entity: EntityDescription,
  key: string,
  relation: string,
  ids: readonly string[],
): Promise<void> {
  await db.transaction('rw', [db.rows(entity), db.outbox], async () => {
    const waiting = await db.outbox.where('[entity+key]').equals([entity.name, key]).count();
    if (waiting === 0) await db.rows(entity).update(key, { [relation]: [...ids] });
  });
}

/** Every record of an entity with its parents' names (the assignment screen's choices). */
export async function allWithParentNames(db: LocalDb, entity: EntityDescription) {
  return db.transaction('r', [db.rows(entity), ...parentTables(db, entity)], async () =>
    withParentNames(db, entity, await db.rows(entity).toArray()),
  );
}
