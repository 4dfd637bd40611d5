/**
 * What a form or a list's value action says before saving a value that another record of the
 * same parent already holds (FieldSpec.flagUsed): a warning under the control, never a refusal.
 */
import type { EntityDescription } from '../contract/entity';
import { usedValueMessage, usedValueRules, valuesGiven } from '../contract/used-values';
import { holdersOfValues } from '../db/reads/used-values';
import { db } from './window-context';

/**
 * By field, the warning for the values given: `files` is how many files an add of several
 * numbers from the typed value (book pages), `own` the record being edited.
 */
export async function usedValueWarnings(
  entity: EntityDescription,
  values: Readonly<Record<string, unknown>>,
  own: string | null,
  files: number,
): Promise<Record<string, string>> {
  const warnings: Record<string, string> = {};
  for (const rule of usedValueRules(entity)) {
    const parent = String(values[rule.within] ?? '');
    const given = valuesGiven(entity, rule.field, String(values[rule.field] ?? ''), files);
    if (parent === '' || given.length === 0) continue;
    const holders = await holdersOfValues(db, entity, rule, parent, given, own);
    const first = given.find((value) => holders.has(value));
    if (first === undefined) continue;
    const title = String(holders.get(first)?.[entity.title] ?? '');
    warnings[rule.field] = usedValueMessage(entity, rule, first, title);
  }
  return warnings;
}
