/**
 * Inputs that appear by a code (EntityDescription.switched): a library resource's inputs by its
 * resource type's entry type, a question's options by its type. One set of rules for the form
 * (which inputs it draws and which it sends empty) and the checks (which shown inputs must be
 * filled), so the two cannot disagree.
 */
import type { EntityDescription } from './entity';

const switchedFields = (entity: EntityDescription): Set<string> =>
  new Set(Object.values(entity.switched?.inputs ?? {}).flat());

/**
 * The code that decides: the value of the switch's field, or, with `parentField`, that field of
 * the chosen parent record (passed in: the caller reads it where it lives). Empty: null.
 */
export function switchCode(
  entity: EntityDescription,
  values: Readonly<Record<string, unknown>>,
  parent?: Readonly<Record<string, unknown>> | null,
): string | null {
  const sw = entity.switched;
  if (!sw) return null;
  const raw = sw.parentField ? parent?.[sw.parentField] : values[sw.field];
  const code = raw === undefined || raw === null ? '' : String(raw).trim();
  return code === '' ? null : code;
}

/** Whether a field of the form appears for the code: not switched at all, or switched on by it. */
export function isShown(entity: EntityDescription, field: string, code: string | null): boolean {
  if (!switchedFields(entity).has(field)) return true;
  return code !== null && (entity.switched?.inputs[code] ?? []).includes(field);
}

/** The switched fields that do not appear for the code: the form sends them empty. */
export function hiddenInputs(
  entity: EntityDescription,
  fields: readonly string[],
  code: string | null,
): string[] {
  return fields.filter((f) => !isShown(entity, f, code));
}

/** Fields that must be filled for the code (an MCQ's options). */
export function requiredFor(entity: EntityDescription, code: string | null): readonly string[] {
  return code === null ? [] : (entity.switched?.required?.[code] ?? []);
}
