/**
 * Which columns a CSV of an entity has, and which header names each: shared by the template,
 * the import's header matching and the export, so an export is always a file the import reads.
 *
 * A column is the row's ID, a field of the entity (its form label is the header written), a
 * parent by name or id (a ref field; also the list's name column, 'School Name'), a name of
 * another entity's record (a student's class) or the status. Fields only the server sets
 * (a teacher's code, the date added) are exported and read back without effect; files and
 * sets (pictures, assigned books) are not in the CSV.
 */
import { columnFields, type EntityDescription, type FieldSpec, wireName } from '../entity';
import { foldHeader } from './fold';

export const ID_HEADER = 'ID';

export type CsvColumnKind = 'id' | 'value' | 'readonly';

export interface CsvColumn {
  /** The row field it fills (the entity's key for the ID column). */
  field: string;
  header: string;
  kind: CsvColumnKind;
}

/** Whether a field can travel in a CSV at all. */
const inCsv = (spec: FieldSpec | undefined): spec is FieldSpec =>
  spec !== undefined && spec.kind !== 'file' && spec.kind !== 'richtext';

/** Whether an entity declares import (EntityDescription.routes.import). */
export const canImport = (entity: EntityDescription): boolean =>
  Boolean(entity.routes.import && entity.api.add && entity.list);

function columnOf(entity: EntityDescription, field: string): CsvColumn | null {
  if (field === entity.key) return { field, header: ID_HEADER, kind: 'id' };
  const spec = entity.fields[field];
  if (!inCsv(spec)) return null;
  return { field, header: spec.label, kind: spec.serverSet ? 'readonly' : 'value' };
}

/** The list's name column of a parent ('school_name') stands for its ref field. */
function refOfName(entity: EntityDescription, name: string): string | null {
  const found = Object.entries(entity.fields).find(([, s]) => s.kind === 'ref' && s.refName === name);
  return found ? found[0] : null;
}

/** The template's columns: the Add form's fields in its order (files left out). */
export function templateColumns(entity: EntityDescription): CsvColumn[] {
  return entity.form.flatMap((f) => columnOf(entity, f) ?? []);
}

/**
 * The export's columns: the ID, then the Add form's fields in the template's order (passwords
 * and files left out: the device holds neither), then what else the list shows (fields the
 * server sets, a status toggle as the status), each once: an export imports back unchanged.
 */
export function exportColumns(entity: EntityDescription): CsvColumn[] {
  const fields: string[] = [entity.key];
  for (const f of entity.form) if (entity.fields[f]?.kind !== 'password') fields.push(f);
  for (const column of entity.list.columns) {
    if (column.kind === 'action' && entity.actions?.[column.action]) {
      fields.push(entity.actions[column.action].field);
      continue;
    }
    if (column.kind === 'image') continue;
    for (const f of columnFields(column)) fields.push(entity.fields[f] ? f : (refOfName(entity, f) ?? f));
  }
  return [...new Set(fields)].flatMap((f) => columnOf(entity, f) ?? []);
}

/**
 * Every name a header may give each column, folded (fold.ts): the form label, the field's
 * name, its wire names, the list's header for it, and 'ID' (and the key's name) for the ID.
 * The first name given wins where two fields would share one.
 */
export function headerNames(entity: EntityDescription): Map<string, CsvColumn> {
  const names = new Map<string, CsvColumn>();
  const add = (name: string | undefined, column: CsvColumn | null) => {
    const folded = name ? foldHeader(name) : '';
    if (column && folded && !names.has(folded)) names.set(folded, column);
  };
  const id = columnOf(entity, entity.key);
  add(ID_HEADER, id);
  add(entity.key, id);
  const fields = Object.keys(entity.fields);
  for (const f of fields) add(entity.fields[f].label, columnOf(entity, f));
  for (const f of fields) add(f, columnOf(entity, f));
  for (const f of fields) {
    add(wireName(entity.fields[f], 'add'), columnOf(entity, f));
    add(wireName(entity.fields[f], 'update'), columnOf(entity, f));
  }
  for (const column of entity.list.columns) {
    const [first] = columnFields(column);
    if (!first || column.kind === 'image' || column.kind === 'location') continue;
    const field = entity.fields[first] ? first : refOfName(entity, first);
    if (field) {
      add(column.header, columnOf(entity, field));
      add(first, columnOf(entity, field));
    }
  }
  for (const [, action] of Object.entries(entity.actions ?? {}))
    add(action.field, columnOf(entity, action.field));
  return names;
}

export interface HeaderMatch {
  /** For each CSV column (by position), the column it fills, or null (unknown, ignored). */
  columns: (CsvColumn | null)[];
  /** Headers that name no field, as written. */
  unknown: string[];
}

/** Matches a header row to the entity's columns; a field named twice is read from its first column. */
export function matchHeader(entity: EntityDescription, header: readonly string[]): HeaderMatch {
  const names = headerNames(entity);
  const taken = new Set<string>();
  const unknown: string[] = [];
  const columns = header.map((h) => {
    const column = names.get(foldHeader(h)) ?? null;
    if (!column || taken.has(column.field)) {
      if (!column && h.trim()) unknown.push(h.trim());
      return null;
    }
    taken.add(column.field);
    return column;
  });
  return { columns, unknown };
}
