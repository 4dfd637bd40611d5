/** The list endpoint: `{ success, [listField]: rows, total }`, total counting every matching row. */
import type { Handler } from 'hono';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { deltaPull } from './delta';
import { parseListParams } from './params';
import { escapeLike, ident, toWireRow } from './sql';

export function listHandler(
  entity: EntityDescription,
  db: Database,
  options: { legacy: boolean },
): Handler<AppEnv> {
  const table = ident(entity.table);
  const key = ident(entity.key);

  return async (c) => {
    const p = parseListParams(entity, c.req.query(), options);
    if (!p) return fail(c, 400, TEXT.badListParams);
    if (p.since !== undefined) return c.json(await deltaPull(db, entity, p.since));

    const params: unknown[] = [];
    let where = '';
    if (p.search && entity.list.search.length > 0) {
      params.push(`%${escapeLike(p.search)}%`);
      // ::text so that number columns can be searched too.
      where = `WHERE ${entity.list.search.map((f) => `${ident(f)}::text ILIKE $1 ESCAPE '\\'`).join(' OR ')}`;
    }
    const q = c.var.q;
    const [{ total }] = await q<{ total: number }>(`SELECT count(*) AS total FROM ${table} ${where}`, params);

    // The key breaks ties so that pages never overlap or skip rows.
    let sql = `SELECT * FROM ${table} ${where} ORDER BY ${ident(p.order.column)} ${p.order.dir}, ${key} ${p.order.dir}`;
    if (p.page) {
      sql += ` LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
      params.push(p.page.limit, p.page.offset);
    }
    const rows = await q<Record<string, unknown>>(sql, params);
    return c.json({ success: true, [entity.api.listField]: rows.map((r) => toWireRow(entity, r)), total });
  };
}
