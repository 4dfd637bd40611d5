/** Reading a record id from a request, with the replies for the two ways it can be wrong. */
import type { Context } from 'hono';
import type { EntityDescription } from '../../src/contract/entity';
import { parseWireId } from '../../src/contract/validation';
import { fail } from '../http/reply';
import { keyInRange } from './sql';

export const notFound = (c: Context, entity: EntityDescription) =>
  fail(c, 404, `${entity.names.One} not found`);

/**
 * The id as text, or the reply to send: 400 when it is not a positive integer, 404 when it is
 * too large to be any row's key.
 */
export function readId(
  c: Context,
  entity: EntityDescription,
  raw: unknown,
): { id: string } | { reply: Response } {
  const id = parseWireId(raw);
  if (id === null) return { reply: fail(c, 400, `Invalid ${entity.key}`) };
  if (!keyInRange(id)) return { reply: notFound(c, entity) };
  return { id };
}
