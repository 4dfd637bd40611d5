/**
 * The reference server: one Hono app serving the legacy API under /api (with our extensions
 * unless `legacy`), uploaded files, and the built PWA.
 *
 * Order of registration matters: compression and the security headers wrap everything; the
 * body size limit comes next; login, logout and the public upload folders come before the
 * session check; every other /api path passes it first (so an unknown path without a session
 * is a 401, and with one a JSON 404), the resumable uploads' endpoint included; the static app
 * and its index.html fallback come last.
 */
import { Hono } from 'hono';
import { authEndpoints } from '../../src/contract/endpoints';
import { entities } from '../../src/contract/entities';
import { registerAccountRoutes } from '../accounts/routes';
import { registerBatchRoute } from '../api/batch';
import { registerPullAllRoute } from '../api/changes-route';
import { entityRoutes } from '../api/entity-routes';
import { type MountOptions, mountRoutes } from '../api/mount';
import { registerAuditRoute } from '../audit/route';
import { requireSession } from '../auth/middleware';
import { registerAuthRoutes } from '../auth/routes';
import type { SessionCache } from '../auth/session-cache';
import type { SessionPolicy } from '../auth/sessions';
import type { ThrottlePolicy } from '../auth/throttle';
import { type BackupOptions, registerBackupRoute } from '../backup/route';
import type { Database } from '../db';
import { registerGeography } from '../geography/routes';
import { API_PREFIX } from '../http/api-prefix';
import { clientInfo, type TrustProxy } from '../http/client';
import { compressJson } from '../http/compress';
import type { AppEnv } from '../http/env';
import { guardQuery, sameOrigin } from '../http/guards';
import { securityHeaders } from '../http/headers';
import { inlineScriptHashes } from '../http/inline-scripts';
import { limitAnonymousBody, limitBody } from '../http/limit';
import { removeTempFiles } from '../http/multipart';
import { fail, TEXT } from '../http/reply';
import { registerStatic } from '../http/static';
import type { Live } from '../live';
import { createOps, type Ops, observe, registerOpsEndpoints } from '../ops';
import { requestLog } from '../ops/context';
import { wasCut } from '../ops/timeouts';
import type { FileStorage } from '../storage';
import type { ResumableUploads } from '../uploads/resumable';
import { registerPrivateUploadRoutes, registerPublicUploadRoutes } from '../uploads/serve';

export { API_PREFIX };

export interface AppOptions {
  db: Database;
  /** Behave like the plain PHP API: no id in add replies, Idempotency-Key and since ignored. */
  legacy?: boolean;
  /** Where uploaded files live: a local folder or a bucket (server/storage). */
  storage: FileStorage;
  /** The built PWA (dist/); not served when absent or missing. */
  staticDir?: string;
  /** Whose X-Forwarded-Proto / X-Forwarded-For to believe (TRUST_PROXY). Default: nobody's. */
  trustProxy?: TrustProxy;
  /** The API's origin when the app was built against another one (allowed in the app's CSP). */
  apiOrigin?: string;
  /** Idle and absolute session limits (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
  sessions?: SessionPolicy;
  /** The sessions this process checked lately (auth/session-cache.ts); without it, each is read. */
  sessionCache?: SessionCache;
  /** Login throttling rules (server/auth/throttle.ts). */
  throttle?: ThrottlePolicy;
  /** Origins besides the app's own that may send writes (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /** Resumable uploads (uploads/resumable.ts); without them, or in legacy mode, no endpoint. */
  resumable?: ResumableUploads;
  /** The backup endpoint of an embedded install (backup/route.ts); absent: none. */
  backup?: BackupOptions;
  /** Logs, metrics, readiness, timeouts (server/ops). Default: quiet, with a database check. */
  ops?: Ops;
  /** The live stream (server/live); without it, or in legacy mode, no endpoint: devices poll. */
  live?: Live;
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const { db } = options;
  const legacy = options.legacy ?? false;
  const app = new Hono<AppEnv>();
  const trustProxy = options.trustProxy ?? 'none';
  const ops = options.ops ?? createOps(db);

  // A stack trace is for the server's log (once, with the request's id), never for the client.
  app.onError((err, c) => {
    // A body cut for slowness is logged where it was cut (ops/timeouts.ts).
    if (!wasCut(c)) requestLog().error({ err }, `${c.req.method} ${c.req.path} failed`);
    return fail(c, 500, TEXT.internal);
  });
  app.notFound((c) => fail(c, 404, TEXT.notFound));

  observe(app, ops, { apiPrefix: API_PREFIX, trustProxy });
  app.use('*', compressJson(API_PREFIX));
  app.use(
    '*',
    securityHeaders({
      apiPrefix: API_PREFIX,
      apiOrigin: options.apiOrigin,
      scriptHashes: inlineScriptHashes(options.staticDir),
      isHttps: (c) => clientInfo(c, trustProxy).https,
    }),
  );
  registerOpsEndpoints(app, { ...ops, trustProxy });
  app.use(`${API_PREFIX}/*`, guardQuery);
  // Files of multipart bodies wait on disk while their request runs (http/multipart.ts).
  app.use(`${API_PREFIX}/*`, removeTempFiles);
  app.use(`${API_PREFIX}/*`, sameOrigin({ trustProxy, allowed: options.allowedOrigins ?? [] }));
  // The only endpoints without a session take a small body; every other body waits for the
  // session check, so an anonymous request is refused before its body is read.
  for (const endpoint of Object.values(authEndpoints))
    app.use(`${API_PREFIX}/${endpoint.path}`, limitAnonymousBody);
  registerAuthRoutes(app, db, API_PREFIX, {
    sessions: options.sessions,
    throttle: options.throttle,
    trustProxy,
  });
  registerPublicUploadRoutes(app, options.storage, API_PREFIX);
  app.use(`${API_PREFIX}/*`, requireSession(db, options.sessionCache));
  app.use(`${API_PREFIX}/*`, limitBody);
  // The PHP API has no resumable uploads: the client detects the 404 and sends files inline.
  const resumable = legacy ? undefined : options.resumable;
  resumable?.register(app, API_PREFIX);
  if (!legacy) options.live?.register(app, API_PREFIX);
  const routes = entityRoutes(entities, db, { legacy, resumable });
  const mount: MountOptions = { db, storage: options.storage, apiPrefix: API_PREFIX, legacy };
  mountRoutes(app, routes, mount);
  // Legacy mode is the plain PHP API, which has no batches (the client falls back).
  if (!legacy) registerBatchRoute(app, entities, routes, mount);
  if (!legacy) registerPullAllRoute(app, entities, mount);
  // The audit trail is recorded in every mode; reading it is our extension.
  if (!legacy) registerAuditRoute(app, db.query, API_PREFIX);
  // Administrators and roles are our extension: the PHP API has one administrator.
  if (!legacy) registerAccountRoutes(app, db, API_PREFIX, { throttle: options.throttle, trustProxy });
  registerGeography(app, API_PREFIX);
  registerPrivateUploadRoutes(app, options.storage, API_PREFIX);
  if (options.backup) registerBackupRoute(app, options.backup);
  registerStatic(app, options.staticDir, API_PREFIX);
  return app;
}
