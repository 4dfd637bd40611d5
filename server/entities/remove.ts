/**
 * Delete: JSON with the id under the key's name (api-contract §3). Refused with a 409 while
 * children still name the row (spec: the legacy tables would keep orphans; we keep the tree
 * whole and say what is in the way). The row's stored files go once the delete has committed.
 */
import type { Handler } from 'hono';
import type { EntityDescription } from '../../src/contract/entity';
import { messages } from '../../src/contract/messages';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import { fileColumns } from './files';
import type { EntityGraph } from './graph';
import { notFound, readId } from './ids';
import { blockingChildren } from './relations';
import { ident } from './sql';

export function deleteHandler(entity: EntityDescription, graph: EntityGraph): Handler<AppEnv> {
  const text = messages(entity.names);
  const table = ident(entity.table);
  const key = ident(entity.key);
  const files = fileColumns(entity);
  return async (c) => {
    const read = readId(c, entity, c.var.body[entity.key]);
    if ('reply' in read) return read.reply;
    const q = c.var.q;
    // Locked before the children check: see relations.ts for the race this closes.
    const [current] = await q<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
      [read.id],
    );
    if (!current) return notFound(c, entity);
    const blocked = await blockingChildren(q, graph, entity, read.id);
    if (blocked) return fail(c, 409, blocked);

    await q(`DELETE FROM ${table} WHERE ${key} = $1`, [read.id]);
    for (const { field, folder } of files) {
      const name = current[field];
      if (typeof name === 'string' && name !== '') c.var.uploads.dropOnSuccess(folder, name);
    }
    return c.json({ success: true, message: text.deleted });
  };
}
