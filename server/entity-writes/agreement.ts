/**
 * Parents must agree. Every level repeats its ancestors' ids (a section names its class,
 * subject, series and book), so a row could name a book of Class 1 / English while saying
 * Class 3 / Science. The rule, read from the descriptions' ref fields: each ancestor id a row
 * carries must be the one its NEAREST named parent carries (a section's class, subject and
 * series are its book's; a unit's book is its section's when it names a section, otherwise
 * the unit's class, subject and series are its book's; a chapter's are its unit's, else its
 * section's, else its book's). The nearest parent is the named one that carries the most of
 * the row's other refs; the levels it does not carry are checked against the next one.
 *
 * An optional level the row leaves empty is not a disagreement (a chapter may name a unit of
 * a section without naming the section: the Add Chapter cascade offers every unit of the book
 * when no section is chosen); a level the row names and its parent leaves empty is one.
 *
 * Checked on add, and on update when the update changes a ref: a row whose parent was moved
 * later (a series given another class) can still be renamed without first being moved too.
 * The parents were locked FOR KEY SHARE by missingParent, and an update of a parent locks it
 * FOR UPDATE, so a parent cannot move between this check and the commit.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { refFields } from '../../src/contract/entity';
import type { Query } from '../db';
import type { EntityGraph, ParentLink } from '../entities/graph';
import { ident } from '../entities/sql';
import type { Columns } from './columns';

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';
const same = (a: unknown, b: unknown) => (isEmpty(a) ? isEmpty(b) : !isEmpty(b) && String(a) === String(b));
const possessive = (noun: string) => (noun.endsWith('s') ? `${noun}'` : `${noun}'s`);

/**
 * The refs of `parent` that the child carries too, e.g. a book's series, subject and class for
 * a section: nearest level first, so a refusal names the most telling disagreement (a section
 * of another book, rather than that book's class).
 */
function sharedRefs(entity: EntityDescription, link: ParentLink): string[] {
  return refFields(link.parent)
    .map(([field]) => field)
    .filter((field) => field in entity.fields)
    .reverse();
}

/** The refusal for the first level of `row` that disagrees with its nearest parent, or null. */
export async function parentDisagreement(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  row: Columns,
): Promise<string | null> {
  const named = graph
    .parents(entity)
    .filter((link) => !isEmpty(row[link.field]))
    .map((link) => ({ link, shared: sharedRefs(entity, link) }))
    .filter(({ shared }) => shared.length > 0)
    // Nearest first: the parent that carries the most of this row's levels.
    .sort((a, b) => b.shared.length - a.shared.length);

  const checked = new Set<string>();
  for (const { link, shared } of named) {
    if (checked.has(link.field)) continue;
    const { parent } = link;
    const [parentRow] = await q<Record<string, unknown>>(
      `SELECT ${shared.map(ident).join(', ')} FROM ${ident(parent.table)}
       WHERE ${ident(parent.key)} = $1::bigint FOR KEY SHARE`,
      [row[link.field]],
    );
    // A missing parent is missingParent's refusal, not this one.
    if (!parentRow) continue;
    for (const field of shared) {
      if (checked.has(field)) continue;
      checked.add(field);
      if (isEmpty(row[field])) continue;
      if (!same(row[field], parentRow[field])) {
        const label = entity.fields[field].label;
        return `${label} does not match the ${possessive(parent.names.one)} ${label.toLowerCase()}`;
      }
    }
    checked.add(link.field);
  }
  return null;
}

/** Whether an update's columns move the row: some ref gets another value than it has. */
export function changesRefs(
  entity: EntityDescription,
  current: Record<string, unknown>,
  cols: Columns,
): boolean {
  return refFields(entity).some(([field]) => field in cols && !same(cols[field], current[field]));
}
