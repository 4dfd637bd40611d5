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
import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { authEndpoints } from '../../src/contract/endpoints';
import { entities } from '../../src/contract/entities';
import { registerBatchRoute } from '../api/batch';
import { entityRoutes } from '../api/entity-routes';
import { DEFAULT_RETENTION_DAYS, pruneKeys } from '../api/idempotency';
import { type MountOptions, mountRoutes } from '../api/mount';
import { registerAuditRoute } from '../audit/route';
import { DEFAULT_AUDIT_RETENTION_DAYS, pruneAudit } from '../audit/store';
import { requireSession } from '../auth/middleware';
import { registerAuthRoutes } from '../auth/routes';
import type { SessionPolicy } from '../auth/sessions';
import type { ThrottlePolicy } from '../auth/throttle';
import {
  type BackupOptions,
  newBackupToken,
  publishBackupAccess,
  registerBackupRoute,
} from '../backup/route';
import { type Database, openDatabase, type Query } from '../db';
import { MERGE_EVERY_MS, mergeAllSearchGrams } from '../entities/gram-log';
import { recordRowShapes } from '../entities/row-shapes';
import { registerGeography } from '../geography/routes';
import { clientInfo, isLoopbackHost, type TrustProxy } from '../http/client';
import { answerClientErrors } from '../http/client-errors';
import { compressJson } from '../http/compress';
import type { AppEnv } from '../http/env';
import { guardQuery, sameOrigin } from '../http/guards';
import { securityHeaders } from '../http/headers';
import { limitAnonymousBody, limitBody } from '../http/limit';
import { type MountedRoute, mountedRoutes } from '../http/mounted';
import { removeTempFiles } from '../http/multipart';
import { fail, TEXT } from '../http/reply';
import { registerStatic } from '../http/static';
import type { Migration } from '../migrations';
import { createOps, type Ops, observe, registerOpsEndpoints } from '../ops';
import { requestLog, setProcessLog } from '../ops/context';
import { type Logger, quietLogger } from '../ops/log';
import { type ShutdownOutcome, type ShutdownTiming, shutDown, trackRequests } from '../ops/shutdown';
import { nodeServerTimeouts, type RequestTimeouts, wasCut } from '../ops/timeouts';
import { seedDemo } from '../seed/demo';
import { type FileStorage, openStorage, type S3Settings } from '../storage';
import { startSweepingFiles } from '../storage/sweep';
import { FileJournal } from '../uploads/journal';
import { DEFAULT_PENDING_MB, openResumableUploads, type ResumableUploads } from '../uploads/resumable';
import { registerPrivateUploadRoutes, registerPublicUploadRoutes } from '../uploads/serve';
import { prepareAdmin } from './startup-guard';

export const API_PREFIX = '/api';

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
  app.use(`${API_PREFIX}/*`, requireSession(db));
  app.use(`${API_PREFIX}/*`, limitBody);
  // The PHP API has no resumable uploads: the client detects the 404 and sends files inline.
  const resumable = legacy ? undefined : options.resumable;
  resumable?.register(app, API_PREFIX);
  const routes = entityRoutes(entities, db, { legacy, resumable });
  const mount: MountOptions = { db, storage: options.storage, apiPrefix: API_PREFIX, legacy };
  mountRoutes(app, routes, mount);
  // Legacy mode is the plain PHP API, which has no batches (the client falls back).
  if (!legacy) registerBatchRoute(app, entities, routes, mount);
  // The audit trail is recorded in every mode; reading it is our extension.
  if (!legacy) registerAuditRoute(app, db.query, API_PREFIX);
  registerGeography(app, API_PREFIX);
  registerPrivateUploadRoutes(app, options.storage, API_PREFIX);
  if (options.backup) registerBackupRoute(app, options.backup);
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
  /** Files and resumable uploads in this bucket (S3_*) instead of DATA_DIR. */
  s3?: S3Settings;
  /** What one administrator's unfinished resumable uploads may add up to (UPLOAD_PENDING_MB). Default 2048. */
  uploadPendingMb?: number;
  /** Migrations after ours: only tests use them, for the tables of their fixture entities. */
  extraMigrations?: readonly Migration[];
  /** The process's logger (server/ops/log.ts). Default: errors only, on stderr. */
  logger?: Logger;
  /** METRICS_TOKEN. */
  metricsToken?: string;
  /** REQUEST_TIMEOUT_SECONDS, UPLOAD_CHUNK_TIMEOUT_SECONDS. */
  timeouts?: RequestTimeouts;
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
  /** Where its files live; `storage.ready()` is the storage's readiness check (storage/index.ts). */
  storage: FileStorage;
  /** Logs, metrics, readiness (server/ops). */
  ops: Ops;
  /** Graceful shutdown (ops/shutdown.ts): not ready, then no new connections, then closed. */
  shutdown(timing: ShutdownTiming): Promise<ShutdownOutcome>;
  /** Closes at once, cutting whatever is in flight. */
  close(): Promise<void>;
}

export const DEFAULT_ADMIN = { username: 'admin', password: 'admin123' } as const;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const onDisk = options.dataDir && options.dataDir !== 'memory://';
  const localFolder = async (name: string) =>
    onDisk ? join(options.dataDir!, name) : await mkdtemp(join(tmpdir(), `${name}-`));
  // The storage first: a bucket that refuses the start does so before the database is touched.
  // Resumable uploads sit beside uploads/, on the same file system, so that a finished upload
  // is moved by a rename; neither folder is made when the files live in a bucket.
  const storage = await openStorage(
    options.s3
      ? { s3: options.s3 }
      : { uploadsDir: await localFolder('uploads'), tusDir: await localFolder('tus') },
  );
  // Only a database created by this very start is seeded (in the transaction that creates
  // it, db/migrate.ts): an admin who deleted every demo class must not see them come back at
  // the next restart, and of several processes starting at once only one seeds. Its files go
  // through a journal like any write's, recorded in that transaction.
  let opened: Database | undefined;
  const seedFiles = new FileJournal(storage, { query: (sql, params) => opened!.query(sql, params) });
  const seed = options.seedDemo
    ? async (q: Query) => {
        const files = seedFiles.forItem();
        await seedDemo(q, (folder, data, ext) => files.save(folder, data, ext));
        files.keep();
        await seedFiles.record(q);
      }
    : undefined;
  const log = options.logger ?? quietLogger();
  if (options.logger) setProcessLog(options.logger);
  const db = await openDatabase({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    extraMigrations: options.extraMigrations,
    seed,
    warn: (message) => log.warn(message),
  }).catch(async (err) => {
    await seedFiles.rolledBack();
    throw err;
  });
  opened = db;
  try {
    if (db.fresh) await seedFiles.committed();
    await prepareAdmin(db.query, log, {
      username: options.adminUsername ?? DEFAULT_ADMIN.username,
      password: options.adminPassword,
      host,
      allowDemoPassword: options.allowDemoPassword ?? false,
      requirePassword: options.requireAdminPassword ?? false,
    });
    // After the migrations: a changed row shape makes older delta cursors pull whole tables.
    await recordRowShapes(db, entities);
  } catch (err) {
    await db.close();
    throw err;
  }

  const resumable = options.legacy
    ? undefined
    : openResumableUploads({
        storage,
        db,
        pendingLimitBytes: (options.uploadPendingMb ?? DEFAULT_PENDING_MB) * 1024 * 1024,
      });
  // `npm run backup` asks the running server, which alone may read PGlite's folder meanwhile.
  const backup =
    onDisk && !options.databaseUrl ? { dataDir: options.dataDir!, db, token: newBackupToken() } : undefined;
  const ops = createOps(db, { log, timeouts: options.timeouts, metricsToken: options.metricsToken });
  ops.readiness.add('object storage', async () => {
    const reason = await storage.ready();
    if (reason) throw new Error(reason);
  });
  const app = createApp({
    ops,
    db,
    legacy: options.legacy,
    storage,
    backup,
    staticDir: options.staticDir,
    trustProxy: options.trustProxy,
    apiOrigin: options.apiOrigin,
    allowedOrigins: options.allowedOrigins,
    resumable,
    sessions: options.sessions,
    throttle: options.throttle,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: options.port ?? 8080,
        hostname: host,
        serverOptions: nodeServerTimeouts(ops.timeouts),
      },
      () => resolve(s),
    );
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
    void pruneKeys(db.query, retention).catch((err) => log.error({ err }, 'Pruning stored replies failed'));
    void pruneAudit(db.query, auditRetention).catch((err) =>
      log.error({ err }, 'Pruning the audit trail failed'),
    );
  };
  prune();
  const pruning = setInterval(prune, 6 * 60 * 60 * 1000);
  pruning.unref();
  // The search-gram log is merged by the readers that find it long, and here for the tables
  // written and not searched (server/entities/gram-log.ts).
  const mergeGrams = () =>
    void mergeAllSearchGrams(db.query).catch((err) =>
      log.error({ err }, 'Merging the search-gram log failed'),
    );
  const merging = setInterval(mergeGrams, MERGE_EVERY_MS);
  merging.unref();
  const port = (server.address() as AddressInfo).port;
  const stopSweeping = resumable?.startSweeping();
  const stopSweepingFiles = startSweepingFiles(storage, db);
  const unpublishBackup = backup
    ? await publishBackupAccess(backup.dataDir, {
        url: `http://${isLoopbackHost(host) || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`,
        token: backup.token,
        pid: process.pid,
      })
    : undefined;
  const inFlight = trackRequests(server as Server);
  const shutdown = (timing: ShutdownTiming) =>
    shutDown(
      {
        server: server as Server,
        readiness: ops.readiness,
        inFlight,
        async beforeClose() {
          clearInterval(pruning);
          clearInterval(merging);
          stopSweeping?.();
          stopSweepingFiles();
          await unpublishBackup?.();
        },
        closeDatabase: () => db.close(),
      },
      timing,
    );
  const shownHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;

  return {
    query: db.query,
    url,
    apiRoot: `${url}${API_PREFIX}`,
    port,
    routes: mountedRoutes(app, API_PREFIX),
    storage,
    ops,
    shutdown,
    async close() {
      await shutdown({ delayMs: 0, timeoutMs: 0 });
    },
  };
}
