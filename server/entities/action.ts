/**
 * A single-field change through its own endpoint (`entity.actions`), e.g. togglePopular.php:
 * JSON `{ [key]: id, [wire]: value }` where the value is the NEW one (api-contract §1, status
 * toggles). The accepted values are those the action has notices for; the reply carries the
 * success notice for the value set, e.g. 'Book enabled successfully'.
 */
import type { Handler } from 'hono';
import type { EntityDescription, FieldAction } from '../../src/contract/entity';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import { notFound, readId } from './ids';
import { ident } from './sql';

export function actionHandler(entity: EntityDescription, action: FieldAction): Handler<AppEnv> {
  const spec = entity.fields[action.field];
  if (!spec) throw new Error(`${action.path}: ${action.field} is not a field of ${entity.name}`);
  const allowed = Object.keys(action.messages);
  const refusal = `${spec.label} must be ${allowed.join(' or ')}`;
  const key = ident(entity.key);
  const sql = `UPDATE ${ident(entity.table)} SET ${ident(action.field)} = $2 WHERE ${key} = $1 RETURNING ${key}`;

  return async (c) => {
    const read = readId(c, entity, c.var.body[entity.key]);
    if ('reply' in read) return read.reply;
    const value = c.var.body[action.wire];
    if (typeof value !== 'string' || !Object.hasOwn(action.messages, value)) return fail(c, 400, refusal);
    const rows = await c.var.q(sql, [read.id, value]);
    if (rows.length === 0) return notFound(c, entity);
    return c.json({ success: true, message: action.messages[value][0] });
  };
}
