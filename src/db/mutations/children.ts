/**
 * Which local records still name a record as their parent. A parent with children is not
 * deleted (the server refuses it the same way, with the same message: contract/still-used.ts),
 * so the local store never holds children of a record that is gone.
 */

import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import {
  type ChildLink,
  childLinks,
  firstUsingLink,
  stillUsedRefusal,
  stillUsedRefusalOf,
} from '../../contract/still-used';
import type { LocalDb } from '../database';

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

/**
 * The refusal of deleting each of `keys` that local records still name (a bulk delete's slice):
 * the same rule and words as `stillUsedOnDevice`, with one look per child link for all the keys
 * instead of one per key. Keys that may go are not in the answer.
 */
export async function stillUsedManyOnDevice(
  db: LocalDb,
  parent: EntityDescription,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const refusals = new Map<string, string>();
  if (keys.length === 0) return refusals;
  const links = childLinks(parent, entities);
  const named: Set<string>[] = [];
  for (const link of links)
    named.push(new Set((await db.rows(link.child).where(link.field).anyOf(keys).uniqueKeys()).map(String)));
  for (const key of keys) {
    const refusal = stillUsedRefusalOf(parent, links, (_, i) => named[i].has(key));
    if (refusal) refusals.set(key, refusal);
  }
  return refusals;
}

/** The refusal of deleting `key` while local records still name it, or null. */
export function stillUsedOnDevice(
  db: LocalDb,
  parent: EntityDescription,
  key: string,
): Promise<string | null> {
  return stillUsedRefusal(parent, childLinks(parent, entities), hasRowNaming(db, key));
}

/** How many local records of each child entity name `key`, in description order (none: left out). */
export async function childCounts(
  db: LocalDb,
  parent: EntityDescription,
  key: string,
): Promise<{ child: EntityDescription; count: number }[]> {
  const links = childLinks(parent, entities);
  const counts = await Promise.all(links.map((l) => db.rows(l.child).where(l.field).equals(key).count()));
  const byChild = new Map<string, { child: EntityDescription; count: number }>();
  for (const [i, link] of links.entries()) {
    if (counts[i] === 0) continue;
    const seen = byChild.get(link.child.name);
    if (seen) seen.count += counts[i];
    else byChild.set(link.child.name, { child: link.child, count: counts[i] });
  }
  return [...byChild.values()];
}
