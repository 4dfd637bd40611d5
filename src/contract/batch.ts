/**
 * The batch extension (ours; design brief §4 lists the others): many independent outbox
 * requests in one HTTP request, applied by the server in ONE transaction with a savepoint per
 * item, each item with its own Idempotency-Key and its own reply. It exists for throughput:
 * the reference server commits one transaction per request, so per-request delivery tops out
 * near 200 writes per second on PGlite, while one commit per batch reaches several times that.
 *
 * A server without the extension (the PHP API, ours in legacy mode) answers 404 or something
 * that is not a batch reply; nothing of the batch was applied then, and the client sends the
 * same requests one by one. Only what replay sends can be batched: an entity's get, add,
 * update, delete and field actions, never a file (multipart stays one request per entry).
 */
import * as v from 'valibot';
import { entityEndpoints } from './endpoints';
import type { EntityDescription } from './entity';
import { RouteTable } from './route-table';

export const BATCH_PATH = 'sync/batch';
/** Items per batch: enough to amortise a commit, small enough that a lost reply costs little. */
export const BATCH_MAX_ITEMS = 100;
/**
 * Bytes of JSON per batch: well under the server's limit on a JSON body (2 MB, which keeps
 * parsing short); an item larger than this travels alone.
 */
export const BATCH_MAX_BYTES = 512 * 1024;

const scalar = v.union([v.string(), v.number()]);

export const batchItemSchema = v.strictObject({
  method: v.picklist(['GET', 'POST']),
  /** Relative to the API root, as in the endpoint table. */
  path: v.pipe(v.string(), v.minLength(1), v.maxLength(300)),
  query: v.optional(v.record(v.string(), scalar)),
  /** The entry's Idempotency-Key. */
  key: v.optional(v.string()),
  /** Exactly one of json / form for a POST: the body the single request would carry. */
  json: v.optional(v.record(v.string(), v.unknown())),
  /** Form fields as name/value pairs (files never travel in a batch). */
  form: v.optional(v.array(v.tuple([v.string(), v.string()]))),
  /** When the change was made on the device, for the audit trail (contract/audit/audit-trail.ts). */
  madeAt: v.optional(scalar),
});

export const batchRequestSchema = v.strictObject({
  requests: v.pipe(v.array(batchItemSchema), v.minLength(1), v.maxLength(BATCH_MAX_ITEMS)),
});

export type BatchItem = v.InferOutput<typeof batchItemSchema>;

/**
 * Batches a client keeps in flight when the server does not say how many it applies at once:
 * one being applied, the next one waiting there.
 */
export const BATCHES_IN_FLIGHT = 2;
/**
 * At most this many, whatever the server says: a browser opens six connections per host over
 * HTTP/1.1, and the live stream and requests that travel alone need theirs.
 */
export const MAX_BATCHES_IN_FLIGHT = 4;

/** The batches to keep in flight for a server that applies `appliesAtOnce` at once. */
export function batchesInFlight(appliesAtOnce: number | undefined): number {
  if (appliesAtOnce === undefined || !Number.isFinite(appliesAtOnce)) return BATCHES_IN_FLIGHT;
  return Math.min(MAX_BATCHES_IN_FLIGHT, Math.max(BATCHES_IN_FLIGHT, Math.floor(appliesAtOnce) + 1));
}

export const batchReplySchema = v.looseObject({
  success: v.literal(true),
  /**
   * How many batches the server applies at once (PGlite: one; PostgreSQL: one per connection
   * it gives to writes). The client keeps one more in flight, so the server never idles while
   * a reply travels back. Absent from servers that predate it: BATCHES_IN_FLIGHT then. Not
   * checked beyond being a number: a reply is never refused for it (batchesInFlight clamps it).
   */
  appliesAtOnce: v.optional(v.number()),
  replies: v.array(
    v.strictObject({
      status: v.number(),
      /** The item's own reply, exactly as the single request would have had it. */
      body: v.unknown(),
      /** Answered from the stored reply of an earlier delivery of the same key. */
      replayed: v.boolean(),
    }),
  ),
});

export type BatchReply = v.InferOutput<typeof batchReplySchema>;

/**
 * Every request a batch may carry, from the endpoint table: what replay sends, i.e. reads of
 * one record and every write; never a list or a lookup.
 */
export function batchableRequests(entities: readonly EntityDescription[]): RouteTable<EntityDescription> {
  const table = new RouteTable<EntityDescription>();
  for (const entity of entities) {
    const ep = entityEndpoints(entity);
    const relations = Object.values(ep.relations).flatMap((r) => [r.read, r.write]);
    for (const e of [ep.get, ep.add, ep.update, ep.remove, ...Object.values(ep.actions), ...relations])
      if (e) table.add(e, entity);
  }
  return table;
}
