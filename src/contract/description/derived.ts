/** What code derives from a description: wire names, form fields, parents, paths, labels. */
import type { EntityDescription } from './entity-types';
import type { FieldSpec, Op } from './field-types';
import type { FieldAction, ListColumn, Path, ValueAction } from './list-types';

export const isValueAction = (action: FieldAction): action is ValueAction => 'value' in action;

/**
 * Whether an operation is our extension, absent from the PHP API: every operation of an
 * extension entity (Terms, content images), or one listed in `api.extensions` (question edit).
 */
export const isExtension = (entity: EntityDescription, op: 'get' | 'add' | 'update'): boolean =>
  entity.extension === true || (op !== 'add' && (entity.api.extensions?.includes(op) ?? false));

/** The notices of setting `value` through an action, or undefined when the action does not take it. */
export function actionNotices(
  action: FieldAction,
  value: unknown,
): readonly [success: string, failure: string] | undefined {
  if (isValueAction(action)) return action.notices;
  return Object.hasOwn(action.messages, String(value)) ? action.messages[String(value)] : undefined;
}

/** The field's wire name for an operation, or undefined when the operation does not send it. */
export function wireName(spec: FieldSpec, op: Op): string | undefined {
  return typeof spec.wire === 'string' ? spec.wire : spec.wire?.[op];
}

type WireFields = readonly (readonly [string, FieldSpec & { wire: string }])[];

const wireFieldsOf = new WeakMap<EntityDescription, Map<Op, WireFields>>();

/**
 * Fields that are sent on the wire for an operation, in description order, with that
 * operation's wire name. Worked out once per description and operation: every request built
 * and every write checked reads them, and their specs are then the same objects each time
 * (validation.ts keeps each field's schema by its spec).
 */
export function wireFields(entity: EntityDescription, op: Op): WireFields {
  let byOp = wireFieldsOf.get(entity);
  if (!byOp) {
    byOp = new Map();
    wireFieldsOf.set(entity, byOp);
  }
  let fields = byOp.get(op);
  if (!fields) {
    fields = Object.entries(entity.fields).flatMap(([name, spec]) => {
      const wire = wireName(spec, op);
      return wire ? [[name, { ...spec, wire }] as const] : [];
    });
    byOp.set(op, fields);
  }
  return fields;
}

export function formFields(entity: EntityDescription, op: Op): readonly string[] {
  return op === 'update' ? (entity.updateForm ?? entity.form) : entity.form;
}

/** Fields that reference a parent entity. */
export function refFields(entity: EntityDescription): [string, FieldSpec & { ref: string }][] {
  return Object.entries(entity.fields).filter(([, s]) => s.kind === 'ref' && s.ref) as [
    string,
    FieldSpec & { ref: string },
  ][];
}

/** The id's name on the wire (`type_id` for resource types, the key elsewhere). */
export const idParamOf = (entity: EntityDescription): string => entity.api.idParam ?? entity.key;

/** Splits a Path into its path and its fixed query parameters. */
export function splitPath(at: Path): { path: string; query: Readonly<Record<string, string>> } {
  return typeof at === 'string' ? { path: at, query: {} } : at;
}

/** The name of a field's choice code, or the code itself when unknown. */
export function choiceLabel(spec: FieldSpec, value: unknown): string {
  const code = String(value ?? '');
  return spec.choices?.find((c) => c.value === code)?.label ?? code;
}

/** The row fields a list column shows (none for buttons and links). */
export function columnFields(column: ListColumn): string[] {
  if (column.kind === 'action' || column.kind === 'link' || column.kind === 'relation') return [];
  if (column.kind === 'fixed') return [];
  if (column.kind === 'location') return [column.country, column.state, column.city];
  if (column.kind === 'image' || column.kind === 'date') return [column.field];
  return [column.field, ...(column.also ?? [])];
}
