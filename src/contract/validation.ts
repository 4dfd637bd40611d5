/**
 * Validation of write requests, built from the entity descriptions so the server and the
 * forms enforce the same rules. The server runs it on the wire body; the forms run it on
 * what the administrator typed before anything is saved.
 */
import * as v from 'valibot';
import { type EntityDescription, type FieldSpec, formFields, type Op, wireFields } from './entity';

export type WireBody = Record<string, unknown>;

export type Validated =
  | { ok: true; value: Record<string, string | number | null> }
  | { ok: false; message: string };

const ID_PATTERN = /^[1-9][0-9]{0,17}$/;

/** A server id as sent on the wire: a positive integer, as a number or as digits. */
export function parseWireId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && ID_PATTERN.test(value.trim())) return value.trim();
  return null;
}

function fieldSchema(spec: FieldSpec): v.GenericSchema<unknown, string | number | null> {
  const label = spec.label;
  switch (spec.kind) {
    case 'number':
      return v.pipe(
        v.union([v.number(`${label} must be a number`), v.string(`${label} must be a number`)]),
        v.transform((x) => (typeof x === 'string' && x.trim() === '' ? null : Number(x))),
        v.check((x) => x === null || Number.isFinite(x), `${label} must be a number`),
      );
    case 'ref':
      return v.pipe(
        v.union([v.string(`${label} must be an id`), v.number(`${label} must be an id`)]),
        v.transform((x) => (String(x).trim() === '' ? null : (parseWireId(x) ?? Number.NaN))),
        v.check((x) => x === null || typeof x === 'string', `${label} must be an id`),
      ) as v.GenericSchema<unknown, string | null>;
    case 'status':
      return v.picklist(['Enabled', 'Disabled'], `${label} must be Enabled or Disabled`);
    case 'choice': {
      // Codes travel as text or as numbers (1 or '1'); anything else is refused here, before
      // it can reach a CHECK constraint and come back as a 500.
      const codes = (spec.choices ?? []).map((c) => c.value);
      const refusal = `${label} must be one of ${codes.join(', ')}`;
      return v.pipe(
        v.union([v.string(refusal), v.number(refusal)]),
        v.transform((x) => String(x).trim()),
        v.picklist(codes, refusal),
      ) as v.GenericSchema<unknown, string>;
    }
    default:
      return v.pipe(
        v.string(`${label} must be text`),
        v.maxLength(spec.maxLength ?? 65535, `${label} is too long`),
      );
  }
}

function isEmpty(x: unknown): boolean {
  return x === undefined || x === null || (typeof x === 'string' && x.trim() === '');
}

/**
 * Validates the wire body of an add or update. Returns the values keyed by wire name,
 * text trimmed, numbers parsed, ids as text; or the first problem as a message.
 */
export function validateWrite(entity: EntityDescription, op: Op, body: WireBody): Validated {
  const value: Record<string, string | number | null> = {};
  for (const [, spec] of wireFields(entity, op)) {
    // Files are checked by content and size where they arrive (server/uploads), not here.
    if (spec.kind === 'file') continue;
    const raw = body[spec.wire];
    if (isEmpty(raw)) {
      if (spec.required) return { ok: false, message: `${spec.label} is required` };
      value[spec.wire] = null;
      continue;
    }
    const parsed = v.safeParse(fieldSchema(spec), raw);
    if (!parsed.success) return { ok: false, message: parsed.issues[0].message };
    value[spec.wire] = typeof parsed.output === 'string' ? parsed.output.trim() : parsed.output;
  }
  return { ok: true, value };
}

/** One problem of a form field, as the form shows it beside the field. */
export interface FieldProblem {
  field: string;
  message: string;
  /** The field is required and empty (the entity's `requiredMessage` speaks for all of these). */
  missing: boolean;
}

/**
 * Every problem of a form's values (keyed by field name), in form order, with the same rules
 * as the server: the form marks each field, not only the first.
 */
export function formProblems(
  entity: EntityDescription,
  op: Op,
  values: Record<string, unknown>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const name of formFields(entity, op)) {
    const spec = entity.fields[name];
    if (!spec || spec.kind === 'file') continue;
    const raw = values[name];
    if (isEmpty(raw)) {
      if (spec.required) problems.push({ field: name, message: `${spec.label} is required`, missing: true });
      continue;
    }
    if (spec.kind === 'ref') continue; // local refs may be temporary ids
    const parsed = v.safeParse(fieldSchema(spec), raw);
    if (!parsed.success) problems.push({ field: name, message: parsed.issues[0].message, missing: false });
  }
  return problems;
}

/**
 * Validates a form's values with the same rules as the server: the first problem, with the
 * entity's own text for a missing field where it has one ('Please fill in all required fields').
 */
export function validateForm(
  entity: EntityDescription,
  op: Op,
  values: Record<string, unknown>,
): { ok: true } | { ok: false; field: string; message: string } {
  const [first] = formProblems(entity, op, values);
  if (!first) return { ok: true };
  const message = first.missing ? (entity.requiredMessage ?? first.message) : first.message;
  return { ok: false, field: first.field, message };
}
