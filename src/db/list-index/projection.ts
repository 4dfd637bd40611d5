/**
 * The list index's projection of an entity: the few fields of each row that searching,
 * sorting and filtering its lists need (the key, the title, the search fields, the fields its
 * columns sort by, parents' ids and names, a status, a class named by a student, the parent a
 * list is inside). The storage
 * layer keeps this projection of every row in compact chunks beside the rows (middleware.ts),
 * and the list engine answers from it without reading the rows themselves.
 *
 * Computed from the descriptions; the window gets it precomputed in the entity catalogue, so
 * its local store keeps the index without loading the descriptions.
 */
import { exportColumns } from '../../contract/csv/csv-columns';
import { columnFields, type EntityDescription, refFields } from '../../contract/entity';
import { parentNameFields, sortFields } from '../../contract/list-order';
import { foldText } from './fold-text';

export interface ListProjection {
  /** The entity's local table. */
  table: string;
  /** Its key field: each row's key is kept apart from the fields. */
  key: string;
  /** The projected fields, in the order the chunks keep their columns. */
  fields: readonly string[];
}

/** Separates a row's search fields in its search text: a search never spans two of them. */
export const FIELD_BREAK = '\u0001';

/**
 * The column of a projection that holds the folded search text. Its name carries the search
 * fields and the folding's version, so a build that searches other fields (or folds otherwise)
 * has another signature, and its index is rebuilt once.
 */
const SEARCH_PREFIX = ':search1:';
export const searchColumn = (search: readonly string[]) => `${SEARCH_PREFIX}${search.join('+')}`;

/**
 * The search fields whose folded text the projection keeps as its last column, or null when
 * it keeps none (the search reads what the row does not hold: a parent's current name, a
 * choice's label). The list engine reads that column instead of folding every row's fields
 * when an entity's list first loads.
 */
export function storedSearch(projection: ListProjection): readonly string[] | null {
  let search = searchOf.get(projection);
  if (search === undefined) {
    const last = projection.fields.at(-1) ?? '';
    search = last.startsWith(SEARCH_PREFIX) ? last.slice(SEARCH_PREFIX.length).split('+') : null;
    searchOf.set(projection, search);
  }
  return search;
}

/** Each projection's stored search fields, worked out once (projectRow asks for every row). */
const searchOf = new WeakMap<ListProjection, readonly string[] | null>();

/** The text a search compares with: the search fields' values, folded (fold-text.ts), one break apart. */
export const searchText = (values: readonly string[]): string =>
  foldText(values.length === 1 ? values[0] : values.join(FIELD_BREAK));

export function listProjection(entity: EntityDescription, all: readonly EntityDescription[]): ListProjection {
  const wanted = [
    entity.title,
    ...entity.list.search,
    ...sortFields(entity, all).map((o) => o.field),
    ...refFields(entity).map(([field]) => field),
    ...parentNameFields(entity).map((p) => p.name),
    // Fields lists filter by: a status, a name of another entity's record (a student's class).
    ...Object.entries(entity.fields)
      .filter(([, spec]) => spec.kind === 'status' || spec.namesOf)
      .map(([field]) => field),
    ...(entity.filters ?? []).filter((f) => f.values).map((f) => f.param),
    ...(entity.routes.within ? [entity.routes.within.field] : []),
    // The fields the list's columns show (a phone, a location) and the rest of its export (the
    // Add form's fields: a zip code): an export of the list reads them here in a few range
    // reads instead of reading every row.
    ...entity.list.columns.flatMap((c) => (c.kind === 'image' ? [] : columnFields(c))).filter(scalar(entity)),
    ...exportColumns(entity)
      .map((c) => c.field)
      .filter(scalar(entity)),
  ];
  const fields = wanted.filter((f, i) => f !== entity.key && wanted.indexOf(f) === i);
  const search = entity.list.search;
  // Only what the row itself holds can be folded when it is written: a parent's name shows the
  // parent's current title and a choice its label, which the engine resolves as it searches.
  const names = new Set(parentNameFields(entity).map((p) => p.name));
  const stored =
    search.length > 0 && search.every((f) => !names.has(f) && entity.fields[f]?.kind !== 'choice');
  if (!stored) return { table: entity.table, key: entity.key, fields };
  return { table: entity.table, key: entity.key, fields: [...fields, searchColumn(search)] };
}

/** Whether a field of the entity holds a value a chunk keeps (not a file or rich text). */
const scalar =
  (entity: EntityDescription) =>
  (field: string): boolean => {
    const kind = entity.fields[field]?.kind;
    return kind !== undefined && kind !== 'file' && kind !== 'richtext';
  };

/** Every entity with a list, each with its projection. */
export function listProjections(all: readonly EntityDescription[]): ListProjection[] {
  return all.filter((e) => !e.single).map((e) => listProjection(e, all));
}

/**
 * A value as the index keeps it: text. Numbers become their text; what is not a scalar (a
 * file, a set of ids) has no place in a list's order or search and becomes ''. NUL separates
 * values in a chunk (chunk.ts), so a NUL in a value (never stored by our server) becomes U+FFFD.
 */
export function projectedValue(value: unknown): string {
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return '';
}

/** A row's projected values, in the projection's field order (the search text folded). */
export function projectRow(projection: ListProjection, row: Readonly<Record<string, unknown>>): string[] {
  const values = projection.fields.map((f) => projectedValue(row[f]));
  const search = storedSearch(projection);
  if (search) values[values.length - 1] = searchText(search.map((f) => projectedValue(row[f])));
  return values;
}
