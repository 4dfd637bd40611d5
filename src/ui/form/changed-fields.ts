/**
 * What a change of the stored record means to an open edit form: which of the fields it shows
 * changed since the form took the record (its base), which of those the administrator had left
 * alone (they take the new value at once: kept, they would undo the other change at save, as
 * the save's base is the record as stored then), and which ones both changed to different
 * values (the administrator's to choose: the new value or theirs).
 */
import { dependants } from '../../contract/cascade';
import type { EntityDescription } from '../../contract/entity';
import { originalNameColumn } from '../../contract/original-file-name';
import { canonicalRichText } from '../../contract/rich-text/rich-text-allowlist';
import type { FormValue } from '../fields/types';
import type { FormValues } from './form-values';

/** Whether a field holds the same value in both: text by its characters (rich text by its form as stored), a chosen file by itself. */
function sameValue(
  entity: EntityDescription,
  field: string,
  a: FormValue | undefined,
  b: FormValue | undefined,
): boolean {
  const [x, y] = [a ?? '', b ?? ''];
  if (typeof x !== 'string' || typeof y !== 'string') return x === y;
  return entity.fields[field]?.kind === 'richtext' ? canonicalRichText(x) === canonicalRichText(y) : x === y;
}

/** The fields compared: those shown, but no password (a stored record holds none, the form never shows one). */
const compared = (entity: EntityDescription, shown: readonly string[]) =>
  shown.filter((f) => entity.fields[f] && entity.fields[f].kind !== 'password');

/** Text standing for the compared values of a record, to tell when they change. */
export const valuesSignature = (entity: EntityDescription, shown: readonly string[], values: FormValues) =>
  JSON.stringify(
    compared(entity, shown).map((f) => {
      const v = values[f];
      return typeof v === 'string' ? v : v instanceof File ? `file:${v.name}:${v.size}` : '';
    }),
  );

export interface Arrival {
  /** Shown fields whose stored value is no longer the one the form took. */
  changed: string[];
  /** Of those, the ones the administrator had left alone. */
  untouched: string[];
  /** Of those, the ones the form does not show as stored now (nothing to say when none). */
  unseen: string[];
  /** Of those, the ones the administrator changed too, to another value. */
  conflicts: string[];
  /** Whether the administrator has unsaved changes in other fields (they stay). */
  typedElsewhere: boolean;
}

/** What changed between the record as the form took it (`base`) and as stored now; null when nothing shown did. */
export function arrival(
  entity: EntityDescription,
  shown: readonly string[],
  base: FormValues,
  stored: FormValues,
  values: FormValues,
): Arrival | null {
  const fields = compared(entity, shown);
  const same = (f: string, a: FormValues, b: FormValues) => sameValue(entity, f, a[f], b[f]);
  const changed = fields.filter((f) => !same(f, stored, base));
  if (changed.length === 0) return null;
  const typed = new Set(fields.filter((f) => !same(f, values, base)));
  const unseen = changed.filter((f) => !same(f, values, stored));
  return {
    changed,
    untouched: changed.filter((f) => !typed.has(f)),
    unseen,
    conflicts: unseen.filter((f) => typed.has(f)),
    typedElsewhere: [...typed].some((f) => !changed.includes(f)),
  };
}

/** The stored values of these fields, with a file's original name beside it, for the form to take. */
export function storedValuesOf(
  entity: EntityDescription,
  stored: FormValues,
  fields: readonly string[],
): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    out[f] = stored[f] ?? '';
    const original = originalNameColumn(f);
    if (entity.fields[f]?.kind === 'file' && original in stored) out[original] = stored[original];
  }
  return out;
}

/** The fields a Reload takes: the ones to choose, with the levels below them, so a cascade stays whole. */
export function reloadedFields(
  entity: EntityDescription,
  conflicts: readonly string[],
  shown: readonly string[],
  cascade: boolean,
): string[] {
  const all = conflicts.flatMap((f) => [f, ...(cascade ? dependants(entity, f, shown) : [])]);
  return [...new Set(all)];
}
