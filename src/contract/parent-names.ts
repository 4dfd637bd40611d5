/**
 * The name shown for a row's parent, defined once. A row that names a parent (a series its
 * class) shows it by the parent record's title, under the ref field's `refName` (series rows
 * carry `class_name`). Every reader takes it from here: the local store's join
 * (db/reads/join-parent-names.ts), the list engine's in-memory titles (db/list-engine/entity-index.ts),
 * the select options, the form's "inside a parent" line, and the server's SQL join
 * (server/entities/select.ts reads the column `parentNameColumn` names).
 */
import { type EntityDescription, refFields } from './entity';

/** A ref field that shows its parent's name: the field, the name's column, the parent entity. */
export interface ParentNameField {
  field: string;
  name: string;
  parent: string;
}

/** The parent's name columns (`refName`) of an entity, with the ref field that names the parent. */
export function parentNameFields(entity: EntityDescription): ParentNameField[] {
  return refFields(entity).flatMap(([field, spec]) =>
    spec.refName ? [{ field, name: spec.refName, parent: spec.ref }] : [],
  );
}

/** The parent's column its name is read from: its title. */
export const parentNameColumn = (parent: Pick<EntityDescription, 'title'>): string => parent.title;

/**
 * A title's value as text: text as it is, a number as its digits, nothing (or what is not a
 * scalar) as ''. The list engine's projection keeps titles already in this form.
 */
export function nameText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return '';
}

/** The name shown for a parent record (and for any record another names by id). */
export function parentName(
  parent: Pick<EntityDescription, 'title'>,
  row: Readonly<Record<string, unknown>>,
): string {
  return nameText(row[parentNameColumn(parent)]);
}

/** What tells records of one name apart: their parents' names (rows joined), in field order. */
export function parentNamesText(entity: EntityDescription, row: Readonly<Record<string, unknown>>): string {
  return parentNameFields(entity)
    .map(({ name }) => nameText(row[name]))
    .filter(Boolean)
    .join(' · ');
}
