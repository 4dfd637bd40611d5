/**
 * An endpoint answering one field of one record (`entity.api.reads`): the id in the query
 * string (GET) or the JSON body (POST), the reply `{ success, [reply]: value }`, e.g.
 * `index.php?type=fetchEntryType&type_id=3` → `{ success: true, entry_type: 2 }`.
 */
import { type EntityDescription, type FieldRead, idParamOf } from '../../src/contract/entity';
import { type ApiHandler, ok } from './handler';
import { notFound, readId } from './ids';
import { ident } from './sql';

export function readFieldHandler(entity: EntityDescription, read: FieldRead): ApiHandler {
  if (!(read.field in entity.fields) && read.field !== entity.key)
    throw new Error(`${entity.name}: read of unknown field ${read.field}`);
  if (entity.fields[read.field]?.kind === 'password')
    throw new Error(`${entity.name}: passwords are never read`);
  const sql = `SELECT ${ident(read.field)} AS value FROM ${ident(entity.table)} WHERE ${ident(entity.key)} = $1`;
  const idParam = idParamOf(entity);
  return async ({ q, query, body }) => {
    const raw = read.method === 'GET' ? query[idParam] : body[idParam];
    const id = readId(entity, raw);
    if ('reply' in id) return id.reply;
    const [row] = await q<{ value: unknown }>(sql, [id.id]);
    if (!row) return notFound(entity);
    return ok({ [read.reply]: row.value });
  };
}
