/**
 * Puts the API's route table on HTTP: each legacy path is mounted once, and a request is
 * dispatched to the endpoint its fixed query parameters name (`index.php?type=insert`). A read
 * runs on the pool; a write goes through the write pipeline as a batch of one, so single
 * requests and batch items share one idempotency path (write-pipeline.ts).
 */
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MADE_AT_HEADER } from '../../src/contract/audit/audit-trail';
import type { RouteTable } from '../../src/contract/route-table';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../../src/contract/wire';
import { auditOrigin } from '../audit/origin';
import { NO_AUDIT } from '../audit/recorder';
import type { Database } from '../db';
import type { ApiReply, ApiRoute } from '../entities/handler';
import { readBody } from '../http/body';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import type { FileStorage } from '../storage/types';
import { NO_UPLOADS } from '../uploads/journal';
import { fingerprintOf } from './fingerprint';
import { isValidKey } from './idempotency';
import { runWrites } from './write-pipeline';

export interface MountOptions {
  db: Database;
  /** Where uploaded files go (server/storage). */
  storage: FileStorage;
  apiPrefix: string;
  /** Behave like the PHP server, which knows nothing of Idempotency-Key. */
  legacy: boolean;
}

export const send = (c: Context, reply: ApiReply, headers: Record<string, string> = {}) =>
  c.json(reply.body, reply.status as ContentfulStatusCode, headers);

export function mountRoutes(app: Hono<AppEnv>, routes: RouteTable<ApiRoute>, options: MountOptions): void {
  const { db, storage, apiPrefix, legacy } = options;
  for (const { method, path } of routes.paths()) {
    app.on(method, `${apiPrefix}/${path}`, async (c) => {
      const query = c.req.query();
      const match = routes.match(method, path, query);
      // One legacy path, several endpoints: a `type` nobody answers (index.php?type=bogus).
      if (!match) return fail(c, 400, TEXT.unknownRequest);
      const route = match.value;
      const multipart = match.endpoint.encoding === 'multipart';
      const read = method === 'POST' ? await readBody(c, { multipart }) : ({ ok: true, body: {} } as const);
      if (!read.ok) return fail(c, read.status, read.message);
      const adminId = c.get('adminId');
      if (!route.writes) {
        return send(
          c,
          await route.handler({
            q: db.query,
            query,
            body: read.body,
            adminId,
            uploads: NO_UPLOADS,
            audit: NO_AUDIT,
          }),
        );
      }
      const key = legacy ? undefined : c.req.header(IDEMPOTENCY_HEADER);
      if (key !== undefined && !isValidKey(key)) return fail(c, 400, TEXT.badKey);
      const label = `${method} ${c.req.path}`;
      const fingerprint =
        key === undefined ? label : await fingerprintOf(method, c.req.path, query, read.body);
      const [reply] = await runWrites(db, storage, [
        {
          route,
          key,
          fingerprint,
          query,
          body: read.body,
          adminId,
          role: c.get('role'),
          label,
          ...auditOrigin(c, c.req.header(MADE_AT_HEADER)),
        },
      ]);
      return send(c, reply, reply.replayed ? { [REPLAYED_HEADER]: 'true' } : {});
    });
  }
}
