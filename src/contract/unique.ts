/**
 * Uniqueness rules of an entity (FieldSpec.unique) and the one sentence that refuses a
 * duplicate. The device's check (src/db/mutations/refuse-duplicates.ts) and the server's reading of a unique
 * violation (server/api/constraint-refusal.ts) both take their words from here, so the
 * form shows the same text at the field whichever of the two refused.
 *
 * The database enforces each rule with a unique index over `columns` (the parent's column
 * first), partial on a non-empty value: an empty optional field is no duplicate, and records
 * without the parent (NULL) never collide, as PostgreSQL treats NULLs as distinct. A caseless
 * rule's index is on lower(column) and named by `uniqueIndexName`.
 */
import type { EntityDescription } from './entity';

export interface UniqueRule {
  field: string;
  /** The parent field whose records the value is unique among; null: across the entity. */
  within: string | null;
  /** Compared without case: an e-mail address (Ana@x.org and ana@x.org reach one mailbox). */
  caseless: boolean;
}

export function uniqueRules(entity: EntityDescription): UniqueRule[] {
  const rules: UniqueRule[] = [];
  for (const [field, spec] of Object.entries(entity.fields)) {
    if (!spec.unique) continue;
    const within = spec.unique === true ? null : spec.unique.within;
    rules.push({ field, within, caseless: spec.kind === 'email' });
  }
  return rules;
}

/** The columns of the rule's unique index, as a database's refusal names them. */
export const uniqueColumns = (rule: UniqueRule): string[] =>
  rule.within ? [rule.within, rule.field] : [rule.field];

/**
 * 'Class Name is already used by another class', or with a parent 'Chapter Title is already
 * used by another chapter in this unit'.
 */
export function duplicateMessage(entity: EntityDescription, rule: UniqueRule): string {
  const label = entity.fields[rule.field]?.label ?? rule.field;
  const parent = rule.within ? entity.fields[rule.within]?.label : undefined;
  const among = parent ? ` in this ${parent.toLowerCase()}` : '';
  return `${label} is already used by another ${entity.names.one}${among}`;
}

/**
 * The rule a refusal's words are of, if any: a change the server refused as a duplicate
 * keeps only the message on the outbox, and the form shows it at the field again when the
 * change is opened for editing.
 */
export function ruleOfRefusal(entity: EntityDescription, message: string | null): UniqueRule | null {
  return uniqueRules(entity).find((rule) => duplicateMessage(entity, rule) === message) ?? null;
}

/**
 * A value that takes part in uniqueness: empty text, null and undefined never collide; a
 * caseless rule's value in lower case.
 */
export function uniqueValue(value: unknown, caseless = false): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (text === '') return null;
  return caseless ? text.toLowerCase() : text;
}

/**
 * The name of the unique index that enforces a rule across an entity: `{table}_{field}_unique`.
 * A caseless rule's index is on lower(field), whose refusal names no column, so the server
 * reads the rule from this name (server/api/constraint-refusal.ts).
 */
export const uniqueIndexName = (entity: EntityDescription, rule: UniqueRule): string =>
  `${entity.table}_${rule.field}_unique`;
