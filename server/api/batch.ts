/**
 * The batch extension (src/contract/batch.ts): the items run one after another through the
 * same route table and the same write pipeline as requests that come alone (same checks, same
 * replies, same handling of their Idempotency-Keys), all inside ONE transaction, each in a
 * savepoint (write-pipeline.ts). If the commit itself fails, nothing of the batch happened and
 * the client's retry sends every item again under the same keys.
 */
import type { Hono } from 'hono';
import * as v from 'valibot';
import { BATCH_PATH, type BatchItem, batchableRequests, batchRequestSchema } from '../../src/contract/batch';
import type { EntityDescription } from '../../src/contract/entity';
import type { RouteTable } from '../../src/contract/route-table';
import { auditOrigin } from '../audit/origin';
import { type ApiRoute, refuse } from '../entities/handler';
import { readBody } from '../http/body';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { opsMetrics } from '../ops/context';
import { fingerprintOf } from './fingerprint';
import { isValidKey } from './idempotency';
import type { MountOptions } from './mount';
import { runWrites, type WriteItem } from './write-pipeline';

const BAD_KEY: ApiRoute = { writes: false, handler: async () => refuse(400, TEXT.badKey) };

/**
 * What the reply says the server applies at once (src/contract/batch.ts): one per transaction
 * the database runs at once, but half of PostgreSQL's connections at most, so that a device's
 * drain leaves the others to other devices and to reads.
 */
const batchesAppliedAtOnce = (db: MountOptions['db']) =>
  Math.max(1, Math.floor((db.transactionsAtOnce ?? 1) / 2));

const text = (query: BatchItem['query']) =>
  Object.fromEntries(Object.entries(query ?? {}).map(([k, val]) => [k, String(val)]));

export function registerBatchRoute(
  app: Hono<AppEnv>,
  entities: readonly EntityDescription[],
  routes: RouteTable<ApiRoute>,
  options: MountOptions,
): void {
  const allowed = batchableRequests(entities);
  app.post(`${options.apiPrefix}/${BATCH_PATH}`, async (c) => {
    const read = await readBody(c, { multipart: false });
    if (!read.ok) return fail(c, read.status, read.message);
    const checked = v.safeParse(batchRequestSchema, read.body);
    if (!checked.success) return fail(c, 400, `${TEXT.badBatch}: ${v.summarize(checked.issues)}`);
    const adminId = c.get('adminId');
    const role = c.get('role');
    const items: (Omit<WriteItem, 'fingerprint'> & { method: string; path: string })[] = [];
    for (const item of checked.output.requests) {
      const query = text(item.query);
      const route =
        allowed.match(item.method, item.path, query) && routes.match(item.method, item.path, query);
      if (!route) return fail(c, 400, TEXT.notBatchable);
      const path = `${options.apiPrefix}/${item.path}`;
      const body = item.form ? Object.fromEntries(item.form) : (item.json ?? {});
      // Keys count for writes only, as for requests that come alone; a malformed one refuses
      // that item alone, as it would refuse the request.
      const key = item.method === 'POST' ? item.key : undefined;
      const label = `${item.method} ${path}`;
      if (key !== undefined && !isValidKey(key))
        items.push({ route: BAD_KEY, method: item.method, path, query, body, adminId, role, label });
      else
        items.push({
          route: route.value,
          key,
          method: item.method,
          path,
          query,
          body,
          adminId,
          role,
          label,
          ...auditOrigin(c, item.madeAt),
        });
    }
    // The fingerprints are hashed side by side (WebCrypto's thread pool), not one after another.
    const writes = await Promise.all(
      items.map(
        async ({ method, path, ...item }): Promise<WriteItem> => ({
          ...item,
          fingerprint:
            item.key === undefined ? item.label : await fingerprintOf(method, path, item.query, item.body),
        }),
      ),
    );
    opsMetrics()?.batchItems.observe(writes.length);
    const replies = await runWrites(options.db, options.storage, writes);
    return c.json({
      success: true,
      replies: replies.map((r) => ({ status: r.status, body: r.body, replayed: r.replayed })),
      appliesAtOnce: batchesAppliedAtOnce(options.db),
    });
  });
}
