/** The record as the server has it now, through the entity's get endpoint. */
import { entityEndpoints, parseReply } from '../contract/endpoints';
import type { EntityDescription } from '../contract/entity';
import type { FieldValue } from '../db/outbox-entry';
import type { ApiClient } from './api';
import { classify, type Verdict } from './classify';
import { normaliseRow } from './pull';

export type CurrentRecord =
  | { kind: 'found'; row: Record<string, FieldValue> }
  | { kind: 'gone' }
  | { kind: 'verdict'; verdict: Verdict };

export async function currentRecord(
  api: ApiClient,
  entity: EntityDescription,
  id: string,
): Promise<CurrentRecord> {
  const endpoint = entityEndpoints(entity).get;
  const outcome = await api.request(endpoint.path, { method: 'GET', query: { [entity.key]: id } });
  if (outcome.kind === 'reply' && outcome.status === 404) return { kind: 'gone' };
  const verdict = classify(outcome, 'get');
  if (verdict.kind !== 'done') return { kind: 'verdict', verdict };
  const body = parseReply(endpoint, verdict.body);
  const row = body ? normaliseRow(entity, body[entity.api.getField] as Record<string, unknown>) : null;
  if (!row) return { kind: 'gone' };
  return { kind: 'found', row: row as Record<string, FieldValue> };
}
