/** The record as the server has it now, from its get endpoint's reply. */
import { entityEndpoints, parseReply, rowOfGetReply } from '../../contract/endpoints';
import type { EntityDescription } from '../../contract/entity';
import { type WireRequest, wireRequest } from '../../contract/wire-request';
import type { FieldValue } from '../../db/outbox/outbox-entry';
import type { ApiOutcome } from '../api/api-client';
import { classify, type Verdict } from '../classify';
import { normaliseRow } from '../pull/normalise';

export type CurrentRecord =
  | { kind: 'found'; row: Record<string, FieldValue> }
  | { kind: 'gone' }
  | { kind: 'verdict'; verdict: Verdict };

/** The get request for a record (by its server id). */
export const currentRecordRequest = (entity: EntityDescription, id: string): WireRequest =>
  wireRequest(entity, { op: 'get', id });

export function currentRecordFrom(entity: EntityDescription, outcome: ApiOutcome): CurrentRecord {
  if (outcome.kind === 'reply' && outcome.status === 404) return { kind: 'gone' };
  const verdict = classify(outcome, 'get');
  if (verdict.kind !== 'done') return { kind: 'verdict', verdict };
  const endpoint = entityEndpoints(entity).get;
  const body = endpoint ? parseReply(endpoint, verdict.body) : null;
  const raw = body ? rowOfGetReply(entity, body) : null;
  const row = raw && typeof raw === 'object' ? normaliseRow(entity, raw as Record<string, unknown>) : null;
  if (!row) return { kind: 'gone' };
  // For the merge only (never stored): a password as the server sent it, which an edit that
  // leaves the password alone sends back, as the original does (merge-edit.ts).
  for (const [name, spec] of Object.entries(entity.fields))
    if (spec.kind === 'password' && typeof (raw as Record<string, unknown>)[name] === 'string')
      row[name] = (raw as Record<string, unknown>)[name];
  return { kind: 'found', row: row as Record<string, FieldValue> };
}
