/** The get-one endpoint: `{ success, [getField]: row }`, the id in the query string. */
import type { Handler } from 'hono';
import type { EntityDescription } from '../../src/contract/entity';
import type { AppEnv } from '../http/env';
import { notFound, readId } from './ids';
import { ident, toWireRow } from './sql';

export function getHandler(entity: EntityDescription): Handler<AppEnv> {
  const sql = `SELECT * FROM ${ident(entity.table)} WHERE ${ident(entity.key)} = $1`;
  return async (c) => {
    const read = readId(c, entity, c.req.query(entity.key));
    if ('reply' in read) return read.reply;
    const [row] = await c.var.q<Record<string, unknown>>(sql, [read.id]);
    if (!row) return notFound(c, entity);
    return c.json({ success: true, [entity.api.getField]: toWireRow(entity, row) });
  };
}
