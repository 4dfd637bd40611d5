/**
 * A single-field change through its own endpoint (`entity.actions`), e.g. togglePopular.php:
 * JSON `{ [id]: id, [wire]: value }` where the value is the NEW one (api-contract §1, status
 * toggles). A toggle accepts the values it has notices for; a value action (updatePageNumber.php)
 * any value its field accepts, checked by the field's own rules. The reply carries the success
 * notice, e.g. 'Book enabled successfully', 'Page number updated successfully'.
 */
import {
  actionNotices,
  type EntityDescription,
  type FieldAction,
  idParamOf,
  isValueAction,
  splitPath,
} from '../../src/contract/entity';
import { parseFieldValue } from '../../src/contract/validation';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { notFound, readId } from '../entities/ids';
import { ident } from '../entities/sql';

export function actionHandler(entity: EntityDescription, action: FieldAction): ApiHandler {
  const spec = entity.fields[action.field];
  if (!spec)
    throw new Error(`${splitPath(action.path).path}: ${action.field} is not a field of ${entity.name}`);
  const refusal = isValueAction(action)
    ? ''
    : `${spec.label} must be ${Object.keys(action.messages).join(' or ')}`;
  const key = ident(entity.key);
  const table = ident(entity.table);
  const field = ident(action.field);
  // The value before comes from the row locked in the same statement, for the audit trail.
  const sql = `UPDATE ${table} t SET ${field} = $2
    FROM (SELECT ${key}, ${field} FROM ${table} WHERE ${key} = $1 FOR UPDATE) prior
    WHERE t.${key} = prior.${key} RETURNING prior.${field} AS before, t.${field} AS after`;
  const op = isValueAction(action) ? 'update' : 'toggle';

  /** The value to store, or the refusal. */
  const checkValue = (raw: unknown): { value: string | number } | { message: string } => {
    if (isValueAction(action)) {
      const parsed = parseFieldValue(spec, raw);
      return parsed.ok ? { value: parsed.value } : { message: parsed.message };
    }
    return typeof raw === 'string' && actionNotices(action, raw) ? { value: raw } : { message: refusal };
  };

  return async ({ q, body, audit }) => {
    const read = readId(entity, body[idParamOf(entity)]);
    if ('reply' in read) return read.reply;
    const checked = checkValue(body[action.wire]);
    if ('message' in checked) return refuse(400, checked.message);
    const [row] = await q<{ before: unknown; after: unknown }>(sql, [read.id, checked.value]);
    if (!row) return notFound(entity);
    const id = { [entity.key]: read.id };
    audit.updated(entity, { ...id, [action.field]: row.before }, { ...id, [action.field]: row.after }, op);
    return ok({ message: actionNotices(action, checked.value)?.[0] });
  };
}
