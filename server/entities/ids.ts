/** Reading a record id from a request, with the replies for the two ways it can be wrong. */
import { type EntityDescription, idParamOf } from '../../src/contract/entity';
import { parseWireId } from '../../src/contract/validation';
import { type ApiReply, refuse } from './handler';
import { keyInRange } from './sql';

export const notFound = (entity: EntityDescription): ApiReply => refuse(404, `${entity.names.One} not found`);

/**
 * The id as text, or the reply to send: 400 when it is not a positive integer, 404 when it is
 * too large to be any row's key.
 */
export function readId(entity: EntityDescription, raw: unknown): { id: string } | { reply: ApiReply } {
  const id = parseWireId(raw);
  if (id === null) return { reply: refuse(400, `Invalid ${idParamOf(entity)}`) };
  if (!keyInRange(id)) return { reply: notFound(entity) };
  return { id };
}
