/**
 * Validation of write requests, built from the entity descriptions so the server and the
 * forms enforce the same rules. The server runs it on the wire body; the forms run it on
 * what the administrator typed before anything is saved.
 */
import * as v from 'valibot';
import { type EntityDescription, type FieldSpec, formFields, type Op, wireFields, wireName } from './entity';
import { isPasswordPlaceholder, placeholderRefusal } from './password-placeholder';
import { isShown, requiredFor, switchCode } from './switched-inputs';
import { isWebUrl } from './urls';

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

/** What a link field that is not a web address hears, on the server and in the form. */
const urlMessage = (label: string) => `${label} must be a web address starting with http:// or https://`;

type FieldSchema = v.GenericSchema<unknown, string | number | null>;

const schemas = new WeakMap<FieldSpec, FieldSchema>();

/**
 * A field's schema, built once per field description: a batch checks every field of every
 * item, and building the pipes anew each time cost the server more than running them.
 */
function fieldSchema(spec: FieldSpec): FieldSchema {
  let schema = schemas.get(spec);
  if (!schema) {
    schema = buildFieldSchema(spec);
    schemas.set(spec, schema);
  }
  return schema;
}

function buildFieldSchema(spec: FieldSpec): FieldSchema {
  const label = spec.label;
  switch (spec.kind) {
    case 'number':
      // Every number column is an integer (int4): 1.5, 1e10 or 2147483648 are refused here,
      // not by the database as a 500.
      return v.pipe(
        v.union([v.number(wholeNumber(label)), v.string(wholeNumber(label))], wholeNumber(label)),
        v.transform((x) => (typeof x === 'string' && x.trim() === '' ? null : Number(x))),
        v.check(
          (x) => x === null || (Number.isInteger(x) && x >= INT_MIN && x <= INT_MAX),
          wholeNumber(label),
        ),
        v.check((x) => x === null || spec.min === undefined || x >= spec.min, atLeast(label, spec.min)),
      );
    case 'ref': {
      // A ref that also takes codes (FieldSpec.codes) says which: the server replaced any
      // known code by its id before this check (server/entity-writes/ref-codes.ts).
      const codes = Object.keys(spec.codes ?? {});
      const refusal =
        codes.length > 0 ? `${label} must be an id or one of ${codes.join(', ')}` : `${label} must be an id`;
      return v.pipe(
        v.union([v.string(refusal), v.number(refusal)], refusal),
        v.transform((x) => (String(x).trim() === '' ? null : (parseWireId(x) ?? Number.NaN))),
        v.check((x) => x === null || typeof x === 'string', refusal),
      ) as v.GenericSchema<unknown, string | null>;
    }
    case 'url':
      return v.pipe(
        v.string(`${label} must be text`),
        v.maxLength(spec.maxLength ?? 2048, tooLong(label, spec.maxLength ?? 2048)),
        v.check((x) => isWebUrl(x.trim()), urlMessage(label)),
      );
    case 'status':
      return v.picklist(['Enabled', 'Disabled'], `${label} must be Enabled or Disabled`);
    case 'choice': {
      // Codes travel as text or as numbers (1 or '1'); anything else is refused here, before
      // it can reach a CHECK constraint and come back as a 500.
      const codes = (spec.choices ?? []).map((c) => c.value);
      const refusal = `${label} must be one of ${codes.join(', ')}`;
      return v.pipe(
        v.union([v.string(refusal), v.number(refusal)], refusal),
        v.transform((x) => String(x).trim()),
        v.picklist(codes, refusal),
      ) as v.GenericSchema<unknown, string>;
    }
    case 'email':
      return v.pipe(
        v.string(`${label} must be text`),
        v.trim(),
        v.maxLength(spec.maxLength ?? 254, tooLong(label, spec.maxLength ?? 254)),
        v.email(`${label} must be a valid e-mail address`),
      );
    case 'phone': {
      const refusal = `${label} must be 5 to 20 digits, with an optional leading + and spaces or dashes`;
      return v.pipe(
        v.union([v.string(refusal), v.number(refusal)], refusal),
        v.transform((x) => String(x).trim()),
        v.regex(/^\+?[0-9][0-9 -]*$/, refusal),
        v.check((x) => {
          const digits = x.replace(/[^0-9]/g, '').length;
          return digits >= 5 && digits <= 20;
        }, refusal),
      );
    }
    default:
      if (spec.location === 'country')
        return v.pipe(
          v.string(`${label} must be a country code`),
          v.trim(),
          v.regex(/^[A-Za-z]{2}$/, `${label} must be a two-letter country code`),
          v.toUpperCase(),
        );
      if (spec.location === 'state')
        return v.pipe(
          v.string(`${label} must be a state code`),
          v.trim(),
          v.regex(/^[A-Za-z0-9-]{1,10}$/, `${label} must be a state code`),
        );
      return v.pipe(
        v.string(`${label} must be text`),
        v.maxLength(spec.maxLength ?? 65535, tooLong(label, spec.maxLength ?? 65535)),
      );
  }
}

const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
const wholeNumber = (label: string) => `${label} must be a whole number between ${INT_MIN} and ${INT_MAX}`;
const atLeast = (label: string, min: number | undefined) => `${label} must be at least ${min}`;
/** Said at the field, by the form and the server alike: nothing typed is ever cut silently. */
export const tooLong = (label: string, max: number) => `${label} is too long: at most ${max} characters`;

/** Kinds whose empty value is the empty text (as the PHP server stores it), not null. */
const TEXT_KINDS: ReadonlySet<string> = new Set(['text', 'richtext', 'email', 'url', 'phone', 'password']);

/** NUL cannot be stored in PostgreSQL text; it is refused, never stripped (what was sent is not what would be kept). */
export const hasNul = (x: unknown) => typeof x === 'string' && x.includes('\u0000');

/** Whether an empty value is refused: a password left empty on an update keeps the current one. */
export const isRequired = (spec: FieldSpec, op: Op) =>
  spec.required === true && !(op === 'update' && spec.kind === 'password');
const mustHave = isRequired;

function isEmpty(x: unknown): boolean {
  return (
    x === undefined ||
    x === null ||
    (typeof x === 'string' && x.trim() === '') ||
    (Array.isArray(x) && x.length === 0)
  );
}

/**
 * One value checked by its field's rules, as a field action sends it (a page number): the
 * parsed value, or the problem. Empty is refused: an action always sets a value.
 */
export function parseFieldValue(
  spec: FieldSpec,
  raw: unknown,
): { ok: true; value: string | number } | { ok: false; message: string } {
  if (hasNul(raw)) return { ok: false, message: `${spec.label} must not contain a NUL character` };
  if (isEmpty(raw)) return { ok: false, message: `${spec.label} is required` };
  const parsed = v.safeParse(fieldSchema(spec), raw);
  if (!parsed.success) return { ok: false, message: parsed.issues[0].message };
  const value = parsed.output;
  if (value === null) return { ok: false, message: `${spec.label} is required` };
  return { ok: true, value: typeof value === 'string' ? value.trim() : value };
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
    if (hasNul(raw)) return { ok: false, message: `${spec.label} must not contain a NUL character` };
    // The placeholder a get reply carries (password-placeholder.ts): sent back on update, it
    // keeps the current password; it is never a new one.
    if (spec.kind === 'password' && isPasswordPlaceholder(raw)) {
      if (op === 'add') return { ok: false, message: placeholderRefusal(spec.label) };
      value[spec.wire] = null;
      continue;
    }
    // On the wire a field is one value: an empty list is not an empty field but a malformed one
    // (the schema below refuses it by the field's kind).
    if (isEmpty(raw) && !Array.isArray(raw)) {
      if (mustHave(spec, op)) return { ok: false, message: `${spec.label} is required` };
      // Optional text left empty is stored as '' (not null), as the legacy server does, so an
      // unchanged save from the original client changes nothing.
      value[spec.wire] = TEXT_KINDS.has(spec.kind) && spec.kind !== 'password' ? '' : null;
      continue;
    }
    const parsed = v.safeParse(fieldSchema(spec), raw);
    if (!parsed.success) return { ok: false, message: parsed.issues[0].message };
    value[spec.wire] = typeof parsed.output === 'string' ? parsed.output.trim() : parsed.output;
  }
  const missing = missingForCode(entity, op, value);
  return missing ? { ok: false, message: missing } : { ok: true, value };
}

/**
 * An input its code makes required (an MCQ's four options) that was sent empty. Only switches
 * on the record's own field: the code is in the same request.
 */
function missingForCode(
  entity: EntityDescription,
  op: Op,
  value: Record<string, string | number | null>,
): string | null {
  const sw = entity.switched;
  if (!sw || sw.parentField) return null;
  const switchWire = wireName(entity.fields[sw.field], op);
  const code = switchWire ? value[switchWire] : null;
  for (const field of requiredFor(entity, code === null ? null : String(code))) {
    const spec = entity.fields[field];
    const wire = wireName(spec, op);
    if (wire && isEmpty(value[wire])) return `${spec.label} is required`;
  }
  return null;
}

/**
 * What is wrong with one typed value, or null: the check formProblems runs per field.
 * Refs are not checked: local refs may be temporary ids.
 */
export function fieldProblem(spec: FieldSpec, raw: unknown): string | null {
  if (spec.kind === 'file' || spec.kind === 'ref' || isEmpty(raw)) return null;
  // Typed in a form, the placeholder would silently mean "unchanged": refused as a password.
  if (spec.kind === 'password' && isPasswordPlaceholder(raw)) return placeholderRefusal(spec.label);
  const parsed = v.safeParse(fieldSchema(spec), raw);
  return parsed.success ? null : parsed.issues[0].message;
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
 * as the server: the form marks each field, not only the first. Inputs hidden by a switch
 * (switched-inputs.ts) are not checked; `code` is the switch's code where it comes from a
 * parent record (the form reads it), else it is read from the values. A required file is
 * checked on add only: on update, no new file keeps the stored one.
 */
export function formProblems(
  entity: EntityDescription,
  op: Op,
  values: Record<string, unknown>,
  code: string | null = switchCode(entity, values),
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const requiredByCode = requiredFor(entity, code);
  for (const name of formFields(entity, op)) {
    const spec = entity.fields[name];
    if (!spec || !isShown(entity, name, code)) continue;
    const raw = values[name];
    if (spec.kind === 'file') {
      if (isEmpty(raw) && spec.required && op === 'add')
        problems.push({ field: name, message: `${spec.label} is required`, missing: true });
      continue;
    }
    if (isEmpty(raw)) {
      if (mustHave(spec, op) || requiredByCode.includes(name))
        problems.push({ field: name, message: `${spec.label} is required`, missing: true });
      continue;
    }
    const problem = fieldProblem(spec, raw);
    if (problem) problems.push({ field: name, message: problem, missing: false });
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
