/**
 * Several files in one add, one record each (FieldSpec.several: addbookpages.php's
 * `file-0..n`). The server takes them from one request; the app saves one record per file in
 * one local transaction and numbers them the same way before they are sent, so the list shows
 * the numbers at once, offline too.
 */
import type { EntityDescription, FieldSpec, SeveralFiles } from './entity';

/** The field of an entity that takes several files on add, if any. */
export function severalField(
  entity: EntityDescription,
): { field: string; spec: FieldSpec; several: SeveralFiles } | null {
  for (const [field, spec] of Object.entries(entity.fields))
    if (spec.kind === 'file' && spec.several) return { field, spec, several: spec.several };
  return null;
}

/**
 * The numbers `count` records take, in the order their files were sent: from `given` upward, or
 * after `highest` (the highest number among the records sharing the `within` field) when none
 * was given, or from 1 when there is none yet.
 */
export function severalNumbers(count: number, given: number | null, highest: number | null): number[] {
  const first = given ?? (highest ?? 0) + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}

/** The wire names of the files of a several-files add, as sent: `{prefix}0`, `{prefix}1` ... */
export const severalWireName = (several: SeveralFiles, index: number): string => `${several.prefix}${index}`;
