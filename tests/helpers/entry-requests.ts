/**
 * Outbox entries as the requests replay sends: the path and the API client's options, as
 * replay builds them (src/sync/entry-request.ts, then src/sync/api/encode-request.ts).
 */
export { listFieldOf } from '../../src/contract/endpoints';

import { type EntityDescription, splitPath } from '../../src/contract/entity';
import type { OutboxEntry } from '../../src/db/outbox/outbox-entry';
import { requestOptions } from '../../src/sync/api/encode-request';
import { entryRequest, type IdResolver, referencedRecords } from '../../src/sync/entry-request';

export function buildRequest(_entity: EntityDescription, entry: OutboxEntry, resolve: IdResolver) {
  const request = entryRequest(entry, resolve);
  return request && { path: request.path, options: requestOptions(request) };
}

/** Every record an entry touches, as 'entity:id'. */
export const referencedIds = (entity: EntityDescription, entry: OutboxEntry): string[] =>
  referencedRecords(entity, entry).map((r) => `${r.entity}:${r.id}`);

/** The path of an entity's list endpoint (master data: a plain path). */
export const listPath = (entity: EntityDescription): string => splitPath(entity.api.list!).path;
