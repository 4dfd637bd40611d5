/**
 * Which local records still name a record as their parent. A parent with children is not
 * deleted (the server refuses it the same way, with the same message: contract/still-used.ts),
 * so the local store never holds children of a record that is gone.
 */

import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { type ChildLink, childLinks, firstUsingLink, stillUsedRefusal } from '../contract/still-used';
import type { LocalDb } from './database';

const hasRowNaming = (db: LocalDb, key: string) => async (link: ChildLink) =>
  (await db.rows(link.child).where(link.field).equals(key).count()) > 0;

/** The first child entity that has a record naming `key`, if any. */
export async function firstChildEntity(
  db: LocalDb,
  parent: EntityDescription,
  key: string,
): Promise<EntityDescription | null> {
  return (await firstUsingLink(childLinks(parent, entities), hasRowNaming(db, key)))?.child ?? null;
}

/** The refusal of deleting `key` while local records still name it, or null. */
export function stillUsedOnDevice(
  db: LocalDb,
  parent: EntityDescription,
  key: string,
): Promise<string | null> {
  return stillUsedRefusal(parent, childLinks(parent, entities), hasRowNaming(db, key));
}
