/**
 * A record's set as the server has it now (a relation's read endpoint: `fetchassigned.php`).
 * The assignment screen asks for it when the local store has none (the legacy server's list
 * rows do not carry sets) and the device is online.
 */
import { entityEndpoints, parseReply } from '../../contract/endpoints';
import type { EntityDescription } from '../../contract/entity';
import { normaliseId } from '../../contract/wire';
import { wireRequest } from '../../contract/wire-request';
import { classify } from '../classify';
import type { ApiClient } from './api-client';
import { requestOptions } from './encode-request';

export async function readServerSet(
  api: ApiClient,
  entity: EntityDescription,
  id: string,
  relation: string,
): Promise<string[] | null> {
  const request = wireRequest(entity, { op: 'relation-read', relation, id });
  const verdict = classify(await api.request(request.path, requestOptions(request)), 'get');
  if (verdict.kind !== 'done') return null;
  const endpoint = entityEndpoints(entity).relations[relation]?.read;
  const body = endpoint ? parseReply(endpoint, verdict.body) : null;
  const reply = entity.relations?.[relation]?.read.reply ?? '';
  if (!body) return null;
  return (body[reply] as unknown[]).map(normaliseId).filter((x) => x !== null);
}
