/**
 * A database constraint that refused a write, as a refusal the client can act on instead of a
 * 500: a 500 is retried, and a change the database will always refuse then goes round forever.
 * The write pipeline (server/api/write-pipeline.ts) asks this of every error a handler throws,
 * single request or batch item alike, after which the item is rolled back to its savepoint.
 *
 * - 409 for a conflict with other rows: a unique or exclusion violation (the words of the
 *   field's `unique` rule, contract/unique.ts, the same the device shows), a delete of a row
 *   that others still name (the words of the server's own check, contract/messages.ts).
 * - 422 for a value the database refuses: a parent that does not exist, a check, a missing
 *   value, a text too long, a number out of range.
 *
 * The reply is the legacy `{ success: false, message }` plus `field`, the description's name of
 * the field at fault where the database says it (the form keys its problems by these names).
 * The field comes from the error's table, column and constraint, read against the entity
 * descriptions; PostgreSQL names no column for a text too long or a number out of range.
 */
import { entities } from '../../src/contract/entities';
import type { EntityDescription, SetRelation } from '../../src/contract/entity';
import { stillUsedBy } from '../../src/contract/messages';
import { duplicateMessage, uniqueColumns, uniqueIndexName, uniqueRules } from '../../src/contract/unique';
import type { ApiReply } from '../entities/handler';

/** The fields PostgreSQL (node-pg and PGlite alike) puts on a constraint error. */
interface DatabaseError {
  code: string;
  table?: string;
  column?: string;
  constraint?: string;
  detail?: string;
  message?: string;
}

const CONFLICT = new Set(['23505', '23P01']);
const FOREIGN_KEY = new Set(['23503', '23001']);
const CONSTRAINT_CODES = new Set([...CONFLICT, ...FOREIGN_KEY, '23514', '23502', '22001', '22003']);

function asDatabaseError(err: unknown): DatabaseError | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && CONSTRAINT_CODES.has(code) ? (err as DatabaseError) : null;
}

const refusal = (status: number, message: string, field?: string): ApiReply => ({
  status,
  body: { success: false, message, ...(field ? { field } : {}) },
});

/** Where the error's table belongs: an entity's own table, or the join table of one of its sets. */
type Owner =
  | { entity: EntityDescription; relation?: undefined }
  | { entity: EntityDescription; relation: [name: string, spec: SetRelation] };

function ownerOf(table: string | undefined, list: readonly EntityDescription[]): Owner | null {
  if (!table) return null;
  for (const entity of list) {
    if (entity.table === table) return { entity };
    for (const relation of Object.entries(entity.relations ?? {}))
      if (`${entity.name}_${relation[0]}` === table) return { entity, relation };
  }
  return null;
}

/** The columns a refusal's detail names: 'Key (unit_id, chapter_title)=(3, Plants) already exists.' */
function detailColumns(detail: string | undefined): string[] {
  const found = detail?.match(/\(([^()]*)\)=\(/);
  return found ? found[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '')) : [];
}

/** The column in a constraint's default name: `{table}_{column}_fkey`, `_check`, `_key`, `_excl`. */
function constraintColumn(error: DatabaseError): string | null {
  const name = error.constraint;
  if (!name || !error.table || !name.startsWith(`${error.table}_`)) return null;
  return name.slice(error.table.length + 1).replace(/_(fkey|check|key|excl)$/, '');
}

/** The described field the error is about, if it names one. */
function fieldOf(entity: EntityDescription, error: DatabaseError): string | null {
  const candidates = [error.column, ...detailColumns(error.detail), constraintColumn(error)];
  return candidates.find((c): c is string => typeof c === 'string' && c in entity.fields) ?? null;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

function conflict(entity: EntityDescription, error: DatabaseError): ApiReply {
  const columns = detailColumns(error.detail);
  const rule =
    uniqueRules(entity).find((r) => uniqueIndexName(entity, r) === error.constraint) ??
    uniqueRules(entity).find((r) => sameSet(uniqueColumns(r), columns)) ??
    (columns.length === 1 && columns[0] in entity.fields
      ? { field: columns[0], within: null, caseless: false }
      : null);
  if (rule) return refusal(409, duplicateMessage(entity, rule), rule.field);
  return refusal(409, `This ${entity.names.one} conflicts with another ${entity.names.one}`);
}

function foreignKey(owner: Owner, error: DatabaseError, list: readonly EntityDescription[]): ApiReply {
  const { entity } = owner;
  if (owner.relation) {
    const [name, spec] = owner.relation;
    const target = list.find((e) => e.name === spec.target);
    return refusal(422, `${target?.names.One ?? spec.label} does not exist`, name);
  }
  // A delete's refusal names the parent's key in its detail: the constraint says the child's column.
  const byName = constraintColumn(error);
  const field = byName && byName in entity.fields ? byName : fieldOf(entity, error);
  const spec = field ? entity.fields[field] : undefined;
  // The detail names the child's own table when rows of it still name the deleted parent
  // ('... is still referenced from table "teachers"'), the parent's table when a parent is
  // missing ('... is not present in table "schools"'): table names are never translated.
  if (error.detail?.includes(`"${error.table}"`)) {
    const parent = list.find((e) => e.name === spec?.ref) ?? quotedParent(error, list);
    const message = parent
      ? stillUsedBy(parent.names, entity.names)
      : `This record cannot be deleted: ${entity.names.many} still belong to it. Delete them first.`;
    return refusal(409, message);
  }
  if (field && spec) return refusal(422, `${spec.label} does not exist`, field);
  return refusal(422, `A record this ${entity.names.one} names does not exist`);
}

/** The deleted row's entity, from the table the message quotes ('delete on table "classes" ...'). */
function quotedParent(
  error: DatabaseError,
  list: readonly EntityDescription[],
): EntityDescription | undefined {
  const quoted = [...(error.message ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  return list.find((e) => e.table !== error.table && quoted.includes(e.table));
}

/** The refusal for a constraint error, or null when the error is something else (a 500). */
export function constraintRefusal(
  err: unknown,
  list: readonly EntityDescription[] = entities,
): ApiReply | null {
  const error = asDatabaseError(err);
  if (!error) return null;
  if (error.code === '22001') return refusal(422, 'A text is longer than the database accepts');
  if (error.code === '22003') return refusal(422, 'A number is outside the range the database accepts');
  const owner = ownerOf(error.table, list);
  if (!owner) return refusal(CONFLICT.has(error.code) ? 409 : 422, 'The database refused the change');
  if (CONFLICT.has(error.code)) return conflict(owner.entity, error);
  if (FOREIGN_KEY.has(error.code)) return foreignKey(owner, error, list);
  const field = fieldOf(owner.entity, error);
  const label = field ? owner.entity.fields[field].label : null;
  if (error.code === '23502')
    return label
      ? refusal(422, `${label} is required`, field ?? undefined)
      : refusal(422, `A value the ${owner.entity.names.one} needs is missing`);
  // 23514, a check constraint.
  return label
    ? refusal(422, `${label} is not an accepted value`, field ?? undefined)
    : refusal(422, `The ${owner.entity.names.one} has a value that is not accepted`);
}
