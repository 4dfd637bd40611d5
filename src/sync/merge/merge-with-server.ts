/**
 * Rule 5 before edits go out: each edited record as the server has it now (one get per record,
 * all of a round's together), merged with this device's changes. An edit whose record changed
 * on the server in a field it changes too is held as a conflict; one whose record is gone
 * fails with that reason; the others go out with the merged values. A set replaced offline
 * (assigned books) meets the server's current set the same way and is merged three ways
 * (merge-set.ts).
 */
import { entityEndpoints, parseReply } from '../../contract/endpoints';
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { normaliseId } from '../../contract/wire';
import { type WireRequest, wireRequest } from '../../contract/wire-request';
import type { OutboxEntry } from '../../db/outbox/outbox-entry';
import type { ApiOutcome } from '../api/api-client';
import { classify } from '../classify';
import { resolveRefs, resolveSet } from '../entry-request';
import { withoutPasswords } from '../pull/normalise';
import type { Round } from '../round-context';
import { type SendResult, settle } from '../settle';
import { currentRecordFrom, currentRecordRequest } from './current-record';
import { mergeEdit } from './merge-edit';
import { mergeSet } from './merge-set';

/** Per edit (by seq): the entry to send, or the pending outcome of what stopped it. */
export type Merged = Map<number, OutboxEntry | Promise<SendResult>>;

export async function mergeEdits(round: Round, edits: readonly OutboxEntry[]): Promise<Merged> {
  const merged: Merged = new Map();
  const asked: OutboxEntry[] = [];
  for (const entry of edits) {
    // Sent before (its reply lost, or a retry): the very same request again, not a new merge,
    // as the server binds the Idempotency-Key to the whole request.
    if (entry.sent) merged.set(entry.seq, { ...entry, ...entry.sent });
    else if (round.resolve(entry.key) === null)
      merged.set(
        entry.seq,
        settle(round.db, round.commits, entry, {
          kind: 'retry',
          reason: 'Waiting for the record to be created',
        }),
      );
    else asked.push(entry);
  }
  const outcomes = await round.transport.sendAll(
    asked.map((entry) => ({
      request: currentRequest(entityByName(entry.entity), entry, round.resolve(entry.key)!),
    })),
  );
  asked.forEach((entry, i) => {
    const entity = entityByName(entry.entity);
    if (entry.op === 'relate') {
      merged.set(entry.seq, mergedSet(round, entity, entry, outcomes[i]));
      return;
    }
    const current = currentRecordFrom(entity, outcomes[i]);
    if (current.kind === 'verdict' && current.verdict.kind !== 'failed' && current.verdict.kind !== 'done') {
      merged.set(entry.seq, settle(round.db, round.commits, entry, current.verdict));
      return;
    }
    if (current.kind !== 'found') {
      const gone = `This ${entity.names.one} was deleted on the server.`;
      merged.set(
        entry.seq,
        settle(round.db, round.commits, entry, { kind: 'failed', message: gone, status: 404, gone: true }),
      );
      return;
    }
    // Parents made offline are compared by the ids the server knows them by: a resent edit
    // (its first reply lost) must not look like a change made on both sides.
    // Images of rich text too: content this device sent is stored with their URLs.
    const resolved = (values: OutboxEntry['payload']) =>
      resolveRefs(entity, values, round.resolve, round.api.root);
    const result = mergeEdit(entity, resolved(entry.base ?? {}), resolved(entry.payload), current.row);
    if (result.conflicts.length > 0) {
      const held = round.commits
        .write(() =>
          round.db.outbox.update(entry.seq, {
            status: 'conflict',
            conflict: { fields: result.conflicts, server: withoutPasswords(entity, current.row) },
            lastError: 'Changed on the server since this edit began',
          }),
        )
        .then((): SendResult => 'conflict');
      merged.set(entry.seq, held);
      return;
    }
    merged.set(entry.seq, { ...entry, base: result.values, payload: {} });
  });
  await freeze(
    round,
    asked.map((e) => merged.get(e.seq)).filter((m): m is OutboxEntry => !(m instanceof Promise)),
  );
  return merged;
}

/** Keeps what each merged edit is about to send, before it goes: its retries send the same. */
async function freeze(round: Round, entries: readonly OutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await round.db.outbox.bulkUpdate(
    entries.map((e) => ({ key: e.seq, changes: { sent: { base: e.base, payload: e.payload } } })),
  );
}

/** What the server has now: the record for an edit, the set for a set's replacement. */
function currentRequest(entity: EntityDescription, entry: OutboxEntry, id: string): WireRequest {
  if (entry.op === 'relate')
    return wireRequest(entity, { op: 'relation-read', relation: entry.relation ?? '', id });
  return currentRecordRequest(entity, id);
}

/** The set to send: this device's changes applied to the server's set. */
function mergedSet(
  round: Round,
  entity: EntityDescription,
  entry: OutboxEntry,
  outcome: ApiOutcome,
): OutboxEntry | Promise<SendResult> {
  const relation = entry.relation ?? '';
  const verdict = classify(outcome, 'get');
  if (verdict.kind === 'done') {
    const endpoint = entityEndpoints(entity).relations[relation]?.read;
    const body = endpoint ? parseReply(endpoint, verdict.body) : null;
    const reply = entity.relations?.[relation]?.read.reply ?? '';
    if (!body) {
      const message = `The server sent an unexpected reply for this ${entity.names.one}'s ${relation}.`;
      return settle(round.db, round.commits, entry, { kind: 'failed', message, status: 200 });
    }
    const server = (body[reply] as unknown[]).map(normaliseId).filter((id) => id !== null);
    const mine = resolveSet(entry.payload[relation], round.resolve) ?? [];
    // Ids of records that never reached the server (added, then deleted offline) drop out.
    const base = (Array.isArray(entry.base?.[relation]) ? (entry.base[relation] as string[]) : [])
      .map(round.resolve)
      .filter((id) => id !== null);
    return { ...entry, payload: { [relation]: mergeSet(base, mine, server) } };
  }
  if (outcome.kind === 'reply' && outcome.status === 404) {
    const gone = `This ${entity.names.one} was deleted on the server.`;
    return settle(round.db, round.commits, entry, { kind: 'failed', message: gone, status: 404, gone: true });
  }
  return settle(round.db, round.commits, entry, verdict);
}
