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

export function idFromReply(entity: EntityDescription, body: Record<string, unknown>): string | null {
  return normaliseId(body[NEW_ID_FIELD]) ?? normaliseId(body[entity.key]);
}

export async function learnIdByRefetch(
  db: LocalDb,
  api: ApiClient,
  entity: EntityDescription,
  entry: OutboxEntry,
): Promise<string | null> {
  const endpoint = entityEndpoints(entity).list;
  const outcome = await api.request(endpoint.path, { method: 'GET' });
  const body = outcome.kind === 'reply' ? parseReply(endpoint, outcome.body) : null;
  if (!body) return null;
  const rows = body[entity.api.listField] as Record<string, unknown>[];
  const known = new Set<string>([
    ...((await db.rows(entity).toCollection().primaryKeys()) as string[]),
    ...(await db.idmap.where('entity').equals(entity.name).toArray()).map((m) => m.serverId),
  ]);
  const compared = Object.keys(entry.payload).filter((f) => !(entry.payload[f] instanceof Blob));
  let best: string | null = null;
  for (const row of rows as Record<string, unknown>[]) {
    const id = normaliseId(row[entity.key]);
    if (id === null || known.has(id)) continue;
    const same = compared.every(
      (f) => !(f in row) || String(row[f] ?? '') === String(entry.payload[f] ?? ''),
    );
    if (same && (best === null || Number(id) > Number(best))) best = id;
  }
  return best;
}
