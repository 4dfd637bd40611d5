/**
 * Delete: JSON with the id under the key's name (api-contract §3). Refused with a 409 while
 * children still name the row (spec: the legacy tables would keep orphans; we keep the tree
 * whole and say what is in the way). The row's stored files go once the delete has committed.
 */
import { type EntityDescription, idParamOf } from '../../src/contract/entity';
import type { EntityGraph } from '../entities/graph';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { notFound, readId } from '../entities/ids';
import { replyTexts } from '../entities/reply-texts';
import { ident } from '../entities/sql';
import { fileColumns } from './files';
import { deleteUnlessUsed } from './relations';

export function deleteHandler(entity: EntityDescription, graph: EntityGraph): ApiHandler {
  const text = replyTexts(entity);
  const table = ident(entity.table);
  const key = ident(entity.key);
  const files = fileColumns(entity);
  return async ({ q, body, uploads, audit }) => {
    const read = readId(entity, body[idParamOf(entity)]);
    if ('reply' in read) return read.reply;
    // Locked before the children check: see relations.ts for the race this closes.
    const [current] = await q<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
      [read.id],
    );
    if (!current) return notFound(entity);
    const blocked = await deleteUnlessUsed(q, graph, entity, read.id);
    if (blocked) return refuse(409, blocked);
    audit.deleted(entity, current);
    for (const { field, folder } of files) {
      const name = current[field];
      if (typeof name === 'string' && name !== '') uploads.dropOnSuccess(folder, name);
    }
    return ok({ message: text.deleted });
  };
}
