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

export const batchReplySchema = v.looseObject({
  success: v.literal(true),
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
