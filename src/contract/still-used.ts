/**
 * "Still used", defined once: a record that rows of another entity name as their parent (a
 * class its series) cannot be deleted; the refusal names the nearest such entity. The device
 * checks it before queueing a delete (db/mutations/children.ts, from mutate's delete), the server before
 * deleting (server/entity-writes/relations.ts, one statement), and both say the same words.
 *
 * Sets that hold a record (a book assigned to schools) do not keep it: a delete takes it out
 * of them (db/mutations/delete.ts), and the delete confirmation counts them
 * (db/reads/relation-reads.ts). Which sets those are is defined here too (`setLinks`).
 */
import type { EntityDescription, EntityNames } from './entity';
import { refFields } from './entity';
import { stillUsedBy } from './messages';

/** A ref field of another entity that names this one. */
export interface ChildLink {
  child: EntityDescription;
  /** The child's field holding the parent's id. */
  field: string;
}

/**
 * The entities whose rows can name `parent`, by which field: in description order (parents
 * before children), so the first found is the nearest.
 */
export function childLinks(parent: EntityDescription, all: readonly EntityDescription[]): ChildLink[] {
  return all.flatMap((child) =>
    refFields(child)
      .filter(([, spec]) => spec.ref === parent.name)
      .map(([field]) => ({ child, field })),
  );
}

/**
 * The first link whose entity still has a row naming the record (`isUsed` asks the store), or
 * null: the record may go.
 */
export async function firstUsingLink(
  links: readonly ChildLink[],
  isUsed: (link: ChildLink, index: number) => boolean | Promise<boolean>,
): Promise<ChildLink | null> {
  for (const [index, link] of links.entries()) if (await isUsed(link, index)) return link;
  return null;
}

/** The refusal of deleting a record still used, or null when nothing names it. */
export async function stillUsedRefusal(
  parent: EntityDescription,
  links: readonly ChildLink[],
  isUsed: (link: ChildLink, index: number) => boolean | Promise<boolean>,
): Promise<string | null> {
  const first = await firstUsingLink(links, isUsed);
  return first ? stillUsedBy(parent.names, first.child.names) : null;
}

/**
 * The same refusal when what names the record is known already (a bulk delete looks once per
 * link for a slice of records; the server asks every link in one statement): synchronous, so a
 * caller inside an IndexedDB transaction makes no await that is not the store's.
 */
export function stillUsedRefusalOf(
  parent: EntityDescription,
  links: readonly ChildLink[],
  isUsed: (link: ChildLink, index: number) => boolean,
): string | null {
  const first = links.find((link, index) => isUsed(link, index));
  return first ? stillUsedBy(parent.names, first.child.names) : null;
}

/** A set relation of another entity that holds this one's ids. */
export interface SetLink {
  owner: EntityDescription;
  /** The relation's name on the owner (its column of ids). */
  relation: string;
}

/** The sets that can hold `target`'s records, in description order. */
export function setLinks(target: EntityDescription, all: readonly EntityDescription[]): SetLink[] {
  return all.flatMap((owner) =>
    Object.entries(owner.relations ?? {})
      .filter(([, rel]) => rel.target === target.name)
      .map(([relation]) => ({ owner, relation })),
  );
}

/** stillUsedBy said before asking, with every kind of record that names it and how many. */
export function stillUsedByCounts(
  parent: EntityNames,
  children: readonly { names: EntityNames; count: number }[],
): string {
  const parts = children.map((c) => `${c.count} ${c.count === 1 ? c.names.one : c.names.many}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  const one = children.length === 1 && children[0]?.count === 1;
  return `This ${parent.one} cannot be deleted: ${list} ${one ? 'belongs' : 'belong'} to it. Delete ${one ? 'it' : 'them'} first.`;
}
