/**
 * The id of a record the server has just added. Our server puts it in the reply; the legacy
 * PHP server does not, so the client refetches the list and takes the newest row it did not
 * know before whose fields equal what was sent (design brief §4).
 */
import { entityEndpoints, parseReply } from '../contract/endpoints';
import type { EntityDescription } from '../contract/entity';
import { NEW_ID_FIELD, normaliseId } from '../contract/wire';
import type { LocalDb } from '../db/database';
import type { OutboxEntry } from '../db/outbox-entry';
import type { ApiClient } from './api';
import { classify, type Verdict } from './classify';
import { type IdResolver, resolveRefs } from './requests';

export function idFromReply(entity: EntityDescription, body: Record<string, unknown>): string | null {
  return normaliseId(body[NEW_ID_FIELD]) ?? normaliseId(body[entity.key]);
}

/** The learned id, `null` when no row matches, or the verdict when the list could not be read. */
export async function learnIdByRefetch(
  db: LocalDb,
  api: ApiClient,
  entity: EntityDescription,
  entry: OutboxEntry,
  /** The replayer's id map (it is current: the replayer is its only writer while it runs). */
  resolve: IdResolver,
): Promise<string | null | Exclude<Verdict, { kind: 'done' }>> {
  const endpoint = entityEndpoints(entity).list;
  const outcome = await api.request(endpoint.path, { method: 'GET' });
  const verdict = classify(outcome, 'pull');
  if (verdict.kind !== 'done') return verdict;
  const body = parseReply(endpoint, verdict.body);
  if (!body) return null;
  const rows = body[entity.api.listField] as Record<string, unknown>[];
  const known = new Set<string>([
    ...((await db.rows(entity).toCollection().primaryKeys()) as string[]),
    ...(await db.idmap.where('entity').equals(entity.name).toArray()).map((m) => m.serverId),
  ]);
  // Compare what was sent: parents by their server ids, no files (the server renames them).
  const payload = resolveRefs(entity, entry.payload, resolve);
  const sent: Record<string, string> = {};
  for (const [field, spec] of Object.entries(entity.fields)) {
    const v = payload[field];
    if (v === undefined || v instanceof Blob || spec.kind === 'file') continue;
    sent[field] = String(v ?? '');
  }
  let best: string | null = null;
  for (const row of rows) {
    const id = normaliseId(row[entity.key]);
    if (id === null || known.has(id)) continue;
    const same = Object.entries(sent).every(([f, v]) => !(f in row) || String(row[f] ?? '') === v);
    if (same && (best === null || Number(id) > Number(best))) best = id;
  }
  return best;
}
