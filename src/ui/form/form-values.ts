/**
 * The form's values and what becomes of them: a record's values as the form holds them (text,
 * or the chosen File), values an add takes from its URL, what a save hands to saveChange, and
 * the location levels a location field reads.
 */
import { type EntityDescription, formFields, type Op } from '../../contract/entity';
import { originalNameColumn } from '../../contract/original-file-name';
import { severalField } from '../../contract/several-files';
import type { Values } from '../../db/mutate';
import type { Row } from '../data';
import type { FormValue } from '../fields/types';

export type FormValues = Record<string, FormValue>;

/** The original name of the stored file a file field holds, when the record came with one. */
export function originalNameOf(values: FormValues, field: string): string | undefined {
  const value = values[field];
  const original = values[originalNameColumn(field)];
  return typeof value === 'string' && typeof original === 'string' ? original : undefined;
}

export function valuesOf(entity: EntityDescription, op: Op, row: Row | null): FormValues {
  const out: FormValues = {};
  const several = op === 'add' ? severalField(entity) : null;
  const within = entity.routes.within?.field;
  for (const name of [...formFields(entity, op), ...(within ? [within] : [])]) {
    const v = row?.[name];
    out[name] = v instanceof File ? v : v === null || v === undefined ? '' : String(v);
    const original = entity.fields[name]?.kind === 'file' ? row?.[originalNameColumn(name)] : null;
    // Beside the field, for its control to show; never sent (changeValues takes fields only).
    if (typeof original === 'string' && original !== '') out[originalNameColumn(name)] = original;
  }
  if (several) out[several.field] = [];
  return out;
}

/**
 * What the form hands to saveChange: on edit, a file field only when a new file was chosen;
 * inputs hidden by the chosen code are sent empty (a hidden file is not sent at all).
 */
export function changeValues(
  entity: EntityDescription,
  op: Op,
  values: FormValues,
  hidden: readonly string[],
): Values {
  const out: Values = {};
  for (const [name, v] of Object.entries(values)) {
    const isFile = entity.fields[name]?.kind === 'file';
    if (Array.isArray(v) || !(name in entity.fields)) continue;
    if (isFile && (hidden.includes(name) || (op === 'update' && !(v instanceof File)))) continue;
    out[name] = hidden.includes(name) ? '' : (v as string | File);
  }
  return out;
}

/** Values an add form takes from its URL: fields of the form named in the search (Add Question from a chapter). */
export function fromSearch(entity: EntityDescription, search: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const name of formFields(entity, 'add')) {
    const v = search[name];
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') out[name] = String(v);
  }
  return out;
}

/** The form's location levels by level ('country', 'state'), for the levels below them. */
export function locationOf(entity: EntityDescription, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(entity.fields))
    if (spec.location) out[spec.location] = values[name];
  return out;
}
