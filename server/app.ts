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
import { mkdir, mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { authEndpoints } from '../src/contract/endpoints';
import { entities } from '../src/contract/entities';
import { registerAuditRoute } from './audit/route';
import { DEFAULT_AUDIT_RETENTION_DAYS, pruneAudit } from './audit/store';
import { requireSession } from './auth/middleware';
import { registerAuthRoutes } from './auth/routes';
import type { SessionPolicy } from './auth/sessions';
import type { ThrottlePolicy } from './auth/throttle';
import { type Database, openDatabase } from './db';
import { entityRoutes } from './entities/routes';
import { registerGeography } from './geography';
import { registerBatchRoute } from './http/batch';
import { clientInfo, type TrustProxy } from './http/client';
import { answerClientErrors } from './http/client-errors';
import { compressJson } from './http/compress';
import type { AppEnv } from './http/env';
import { guardQuery, sameOrigin } from './http/guards';
import { securityHeaders } from './http/headers';
import { DEFAULT_RETENTION_DAYS, pruneKeys } from './http/idempotency';
import { limitAnonymousBody, limitBody } from './http/limit';
import { type MountOptions, mountRoutes } from './http/mount';
import { type MountedRoute, mountedRoutes } from './http/mounted';
import { removeTempFiles } from './http/multipart';
import { fail, TEXT } from './http/reply';
import { registerStatic } from './http/static';
import { seedDemo } from './seed';
import { prepareAdmin } from './startup-guard';
import { openResumableUploads, type ResumableUploads } from './uploads/resumable';
import { registerPrivateUploadRoutes, registerPublicUploadRoutes } from './uploads/serve';
import { saveUpload } from './uploads/store';

export const API_PREFIX = '/api';

export interface AppOptions {
  db: Database;
  /** Behave like the plain PHP API: no id in add replies, Idempotency-Key and since ignored. */
  legacy?: boolean;
  /** Folder holding uploads/{folder}/{name}. */
  uploadsDir: string;
  /** The built PWA (dist/); not served when absent or missing. */
  staticDir?: string;
  /** Whose X-Forwarded-Proto / X-Forwarded-For to believe (TRUST_PROXY). Default: nobody's. */
  trustProxy?: TrustProxy;
  /** The API's origin when the app was built against another one (allowed in the app's CSP). */
  apiOrigin?: string;
  /** Idle and absolute session limits (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
  sessions?: SessionPolicy;
  /** Login throttling rules (server/auth/throttle.ts). */
  throttle?: ThrottlePolicy;
  /** Origins besides the app's own that may send writes (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /** Resumable uploads (uploads/resumable.ts); without them, or in legacy mode, no endpoint. */
  resumable?: ResumableUploads;
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const { db } = options;
  const legacy = options.legacy ?? false;
  const app = new Hono<AppEnv>();

  // A stack trace is for the server's log, never for the client.
  app.onError((err, c) => {
    console.error(`${c.req.method} ${c.req.path} failed:`, err);
    return fail(c, 500, TEXT.internal);
  });
  app.notFound((c) => fail(c, 404, TEXT.notFound));

  const trustProxy = options.trustProxy ?? 'none';
  app.use('*', compressJson(API_PREFIX));
  app.use(
    '*',
    securityHeaders({
      apiPrefix: API_PREFIX,
      apiOrigin: options.apiOrigin,
      isHttps: (c) => clientInfo(c, trustProxy).https,
    }),
  );
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
  registerPublicUploadRoutes(app, options.uploadsDir, API_PREFIX);
  app.use(`${API_PREFIX}/*`, requireSession(db));
  app.use(`${API_PREFIX}/*`, limitBody);
  // The PHP API has no resumable uploads: the client detects the 404 and sends files inline.
  const resumable = legacy ? undefined : options.resumable;
  resumable?.register(app, API_PREFIX);
  const routes = entityRoutes(entities, db, { legacy, resumable });
  const mount: MountOptions = { db, uploadsDir: options.uploadsDir, apiPrefix: API_PREFIX, legacy };
  mountRoutes(app, routes, mount);
  // Legacy mode is the plain PHP API, which has no batches (the client falls back).
  if (!legacy) registerBatchRoute(app, entities, routes, mount);
  // The audit trail is recorded in every mode; reading it is our extension.
  if (!legacy) registerAuditRoute(app, db.query, API_PREFIX);
  registerGeography(app, API_PREFIX);
  registerPrivateUploadRoutes(app, options.uploadsDir, API_PREFIX);
  registerStatic(app, options.staticDir, API_PREFIX);
  return app;
}

export interface ServerOptions {
  /** 0 picks a free port. Default 8080. */
  port?: number;
  /** Default 127.0.0.1 (HOST). */
  host?: string;
  /** On-disk data (PGlite files and uploads). Absent or 'memory://': in memory, uploads in a temp folder. */
  dataDir?: string;
  /** A real PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  adminUsername?: string;
  /** Undefined: the demo password (admin123). */
  adminPassword?: string;
  /** Listen on a non-loopback host even while the account has the demo password. Default false. */
  allowDemoPassword?: boolean;
  /** Refuse to create the account with the demo password (production). Default false. */
  requireAdminPassword?: boolean;
  staticDir?: string;
  legacy?: boolean;
  /** Classes 1 to 12 when the database is created by this start. Default false. */
  seedDemo?: boolean;
  trustProxy?: TrustProxy;
  apiOrigin?: string;
  sessions?: SessionPolicy;
  throttle?: ThrottlePolicy;
  allowedOrigins?: readonly string[];
  /** Days a stored idempotent reply is kept (IDEMPOTENCY_RETENTION_DAYS). Default 60. */
  idempotencyRetentionDays?: number;
  /** Days an audit entry is kept (AUDIT_RETENTION_DAYS). Default 730. */
  auditRetentionDays?: number;
}

export interface RunningServer {
  /** The server's database, for tests and tools that look inside (never for the API). */
  query: Database['query'];
  url: string;
  /** url + '/api': the API root a client is configured with. */
  apiRoot: string;
  port: number;
  /** Every route the app answers under /api, as mounted (http/mounted.ts). */
  routes: readonly MountedRoute[];
  close(): Promise<void>;
}

export const DEFAULT_ADMIN = { username: 'admin', password: 'admin123' } as const;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const db = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const onDisk = options.dataDir && options.dataDir !== 'memory://';
  const uploadsDir = onDisk ? join(options.dataDir!, 'uploads') : await mkdtemp(join(tmpdir(), 'uploads-'));
  try {
    await mkdir(uploadsDir, { recursive: true });
    // Only a database created by this very start is seeded: an admin who deleted every demo
    // class must not see them come back at the next restart. Seeded before the account is
    // checked, so that a start refused below does not leave the next one without demo data.
    if (options.seedDemo && db.fresh)
      await db.tx((q) => seedDemo(q, (folder, data, ext) => saveUpload(uploadsDir, folder, data, ext)));
    await prepareAdmin(db.query, {
      username: options.adminUsername ?? DEFAULT_ADMIN.username,
      password: options.adminPassword,
      host,
      allowDemoPassword: options.allowDemoPassword ?? false,
      requirePassword: options.requireAdminPassword ?? false,
    });
  } catch (err) {
    await db.close();
    throw err;
  }

  // Beside uploads/, on the same file system, so that a finished upload is moved by a rename.
  const resumableDir = onDisk ? join(options.dataDir!, 'tus') : await mkdtemp(join(tmpdir(), 'tus-'));
  await mkdir(resumableDir, { recursive: true });
  const resumable = options.legacy ? undefined : openResumableUploads(resumableDir);
  const app = createApp({
    db,
    legacy: options.legacy,
    uploadsDir,
    staticDir: options.staticDir,
    trustProxy: options.trustProxy,
    apiOrigin: options.apiOrigin,
    allowedOrigins: options.allowedOrigins,
    resumable,
    sessions: options.sessions,
    throttle: options.throttle,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 8080, hostname: host }, () => resolve(s));
    s.once('error', reject);
    answerClientErrors(s as Server);
  }).catch(async (err) => {
    await db.close();
    throw err;
  });
  // Stored replies and audit entries older than their retention windows go, now and every six hours.
  const retention = options.idempotencyRetentionDays ?? DEFAULT_RETENTION_DAYS;
  const auditRetention = options.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  const prune = () => {
    void pruneKeys(db.query, retention).catch((err) => console.error('Pruning stored replies failed:', err));
    void pruneAudit(db.query, auditRetention).catch((err) =>
      console.error('Pruning the audit trail failed:', err),
    );
  };
  prune();
  const pruning = setInterval(prune, 6 * 60 * 60 * 1000);
  pruning.unref();
  const port = (server.address() as AddressInfo).port;
  const stopSweeping = resumable?.startSweeping();
  const shownHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;

  return {
    query: db.query,
    url,
    apiRoot: `${url}${API_PREFIX}`,
    port,
    routes: mountedRoutes(app, API_PREFIX),
    async close() {
      clearInterval(pruning);
      stopSweeping?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open (and the port) indefinitely.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await db.close();
    },
  };
}
