/**
 * Values flagged when already used (FieldSpec.flagUsed): which values a form or a list's value
 * action is about to give, and the sentence that names the record holding one of them.
 */
import type { EntityDescription } from './entity';

export interface UsedValueRule {
  field: string;
  /** The parent field whose records are compared. */
  within: string;
}

export function usedValueRules(entity: EntityDescription): UsedValueRule[] {
  const rules: UsedValueRule[] = [];
  for (const [field, spec] of Object.entries(entity.fields))
    if (spec.flagUsed) rules.push({ field, within: spec.flagUsed.within });
  return rules;
}

/**
 * The values a save gives the field: the one typed, and for an add of several files numbered
 * by it (book pages), one more for each file after the first.
 */
export function valuesGiven(
  entity: EntityDescription,
  field: string,
  typed: string,
  files: number,
): string[] {
  const first = Number(typed.trim());
  if (typed.trim() === '' || !Number.isInteger(first)) return typed.trim() === '' ? [] : [typed.trim()];
  const numbered = Object.values(entity.fields).some((spec) => spec.several?.numbering?.field === field);
  const count = numbered ? Math.max(files, 1) : 1;
  return Array.from({ length: count }, (_, i) => String(first + i));
}

/** 'Page Number 3 is already used in this book by “Opener”.' */
export function usedValueMessage(
  entity: EntityDescription,
  rule: UsedValueRule,
  value: string,
  holderTitle: string,
): string {
  const parent = entity.fields[rule.within]?.label.toLowerCase() ?? rule.within;
  return `${entity.fields[rule.field].label} ${value} is already used in this ${parent} by “${holderTitle}”.`;
}
