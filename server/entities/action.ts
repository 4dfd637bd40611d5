/**
 * A single-field change through its own endpoint (`entity.actions`), e.g. togglePopular.php:
 * JSON `{ [id]: id, [wire]: value }` where the value is the NEW one (api-contract §1, status
 * toggles). The accepted values are those the action has notices for; the reply carries the
 * success notice for the value set, e.g. 'Book enabled successfully'.
 */
import { type EntityDescription, type FieldAction, idParamOf, splitPath } from '../../src/contract/entity';
import { type ApiHandler, ok, refuse } from '../http/api';
import { notFound, readId } from './ids';
import { ident } from './sql';

export function actionHandler(entity: EntityDescription, action: FieldAction): ApiHandler {
  const spec = entity.fields[action.field];
  if (!spec)
    throw new Error(`${splitPath(action.path).path}: ${action.field} is not a field of ${entity.name}`);
  const allowed = Object.keys(action.messages);
  const refusal = `${spec.label} must be ${allowed.join(' or ')}`;
  const key = ident(entity.key);
  const sql = `UPDATE ${ident(entity.table)} SET ${ident(action.field)} = $2 WHERE ${key} = $1 RETURNING ${key}`;

  return async ({ q, body }) => {
    const read = readId(entity, body[idParamOf(entity)]);
    if ('reply' in read) return read.reply;
    const value = body[action.wire];
    if (typeof value !== 'string' || !Object.hasOwn(action.messages, value)) return refuse(400, refusal);
    const rows = await q(sql, [read.id, value]);
    if (rows.length === 0) return notFound(entity);
    return ok({ message: action.messages[value][0] });
  };
}
