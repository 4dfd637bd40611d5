/** The get-one endpoint: `{ success, [getField]: row }`, the id in the query string. */
import type { Handler } from 'hono';
import type { EntityDescription } from '../../src/contract/entity';
import type { AppEnv } from '../http/env';
import type { EntityGraph } from './graph';
import { notFound, readId } from './ids';
import { rowSelect } from './select';
import { ident, toWireRow } from './sql';

export function getHandler(entity: EntityDescription, graph: EntityGraph): Handler<AppEnv> {
  const sql = `${rowSelect(entity, graph).sql} WHERE t.${ident(entity.key)} = $1`;
  return async (c) => {
    const read = readId(c, entity, c.req.query(entity.key));
    if ('reply' in read) return read.reply;
    const [row] = await c.var.q<Record<string, unknown>>(sql, [read.id]);
    if (!row) return notFound(c, entity);
    return c.json({ success: true, [entity.api.getField]: toWireRow(entity, row) });
  };
}
