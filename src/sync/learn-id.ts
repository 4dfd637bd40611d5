/**
 * The id of a record the server has just added. Our server puts it in the reply; the legacy
 * PHP server does not, so the client refetches the list and takes the newest rows it did not
 * know before whose fields equal what was sent (design brief §4): one refetch per entity for
 * all the adds of a round.
 */
import { entityEndpoints, listFieldOf, parseReply } from '../contract/endpoints';
import type { EntityDescription } from '../contract/entity';
import { NEW_ID_FIELD, normaliseId } from '../contract/wire';
import { wireRequest } from '../contract/wire-request';
import type { LocalDb } from '../db/database';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import type { ApiClient } from './api/api-client';
import { requestOptions } from './api/encode-request';
import { classify, type Verdict } from './classify';
import { type IdResolver, resolveRefs } from './entry-request';

export function idFromReply(entity: EntityDescription, body: Record<string, unknown>): string | null {
  // A single document has one local id whatever the server says.
  if (entity.single) return entity.single.id;
  return normaliseId(body[NEW_ID_FIELD]) ?? normaliseId(body[entity.key]);
}

/** What each add learned: its id, `null` when no row matches, or the verdict when the list could not be read. */
export type Learned = string | null | Exclude<Verdict, { kind: 'done' }>;

export async function learnIdsByRefetch(
  db: LocalDb,
  api: ApiClient,
  entity: EntityDescription,
  adds: readonly OutboxEntry[],
  /** The replayer's id map (it is current: the replayer is its only writer while it runs). */
  resolve: IdResolver,
): Promise<Map<number, Learned>> {
  const learned = new Map<number, Learned>();
  const request = wireRequest(entity, { op: 'list' });
  const verdict = classify(await api.request(request.path, requestOptions(request)), 'pull');
  if (verdict.kind !== 'done') {
    for (const add of adds) learned.set(add.seq, verdict);
    return learned;
  }
  const endpoint = entityEndpoints(entity).list;
  const body = endpoint ? parseReply(endpoint, verdict.body) : null;
  const rows = (body?.[listFieldOf(entity)] as Record<string, unknown>[] | undefined) ?? [];
  const known = new Set<string>([
    ...((await db.rows(entity).toCollection().primaryKeys()) as string[]),
    ...(await db.idmap.where('entity').equals(entity.name).toArray()).map((m) => m.serverId),
  ]);
  // Each row names one add only: the newest add takes the newest matching row, and so on, which
  // is each add's own unless identical records were added meanwhile (then any of them is).
  const fresh = rows
    .map((row) => ({ row, id: normaliseId(row[entity.key]) }))
    .filter((r): r is { row: Record<string, unknown>; id: string } => r.id !== null && !known.has(r.id))
    .sort((a, b) => Number(b.id) - Number(a.id));
  const taken = new Set<string>();
  for (const add of [...adds].sort((a, b) => b.seq - a.seq)) {
    const sent = sentValues(entity, add, resolve);
    const match = fresh.find(
      ({ row, id }) =>
        !taken.has(id) && Object.entries(sent).every(([f, v]) => !(f in row) || String(row[f] ?? '') === v),
    );
    if (match) taken.add(match.id);
    learned.set(add.seq, match?.id ?? null);
  }
  return learned;
}

/** What was sent, to compare: parents by their server ids, no files (the server renames them). */
function sentValues(
  entity: EntityDescription,
  entry: OutboxEntry,
  resolve: IdResolver,
): Record<string, string> {
  const payload = resolveRefs(entity, entry.payload, resolve);
  const sent: Record<string, string> = {};
  for (const [field, spec] of Object.entries(entity.fields)) {
    const v = payload[field];
    if (v === undefined || v instanceof Blob || spec.kind === 'file') continue;
    sent[field] = String(v ?? '');
  }
  return sent;
}
