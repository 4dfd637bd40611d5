/**
 * Which local records still name a record as their parent. A parent with children is not
 * deleted (the server refuses it the same way, with the same message), so the local store
 * never holds children of a record that is gone.
 */

import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { refFields } from '../contract/entity';
import type { LocalDb } from './database';

/** The first child entity that has a record naming `key`, if any. */
export async function firstChildEntity(
  db: LocalDb,
  parent: EntityDescription,
  key: string,
): Promise<EntityDescription | null> {
  for (const child of entities) {
    for (const [field, spec] of refFields(child)) {
      if (spec.ref !== parent.name) continue;
      if ((await db.rows(child).where(field).equals(key).count()) > 0) return child;
    }
  }
  return null;
}
