/**
 * Starts the reference server: file storage, then the database (migrated, seeded when this
 * start created it, the administrator checked), then the app (create-app.ts) listening, then
 * the upkeep timers. Every step that fails after the database opened closes it again.
 */
import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { entities } from '../../src/contract/entities';
import { DEFAULT_RETENTION_DAYS, pruneKeys } from '../api/idempotency';
import { DEFAULT_AUDIT_RETENTION_DAYS, pruneAudit } from '../audit/store';
import { openSessionCache } from '../auth/session-cache';
import type { SessionPolicy } from '../auth/sessions';
import type { ThrottlePolicy } from '../auth/throttle';
import { type BackupOptions, newBackupToken, publishBackupAccess } from '../backup/route';
import { type Database, type OpenedDatabase, openDatabase, type Query } from '../db';
import { duplicateGroups, duplicatesWarning } from '../entities/duplicates';
import { recordRowShapes } from '../entities/row-shapes';
import { isLoopbackHost, type TrustProxy } from '../http/client';
import { answerClientErrors } from '../http/client-errors';
import type { AppEnv } from '../http/env';
import { type MountedRoute, mountedRoutes } from '../http/mounted';
import { repeatEvery } from '../kit/upkeep';
import { openLive } from '../live';
import type { Migration } from '../migrations';
import { createOps, type Ops } from '../ops';
import { setProcessLog } from '../ops/context';
import { type Logger, quietLogger } from '../ops/log';
import { type ShutdownOutcome, type ShutdownTiming, shutDown, trackRequests } from '../ops/shutdown';
import { nodeServerTimeouts, type RequestTimeouts } from '../ops/timeouts';
import { seedDemo } from '../seed/demo';
import { type FileStorage, openStorage, type S3Settings } from '../storage';
import { startSweepingFiles } from '../storage/sweep';
import { FileJournal } from '../uploads/journal';
import { DEFAULT_PENDING_MB, openResumableUploads, type ResumableUploads } from '../uploads/resumable';
import { API_PREFIX, createApp } from './create-app';
import { prepareAdmin } from './startup-guard';

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
  /** Between a live stream's keep-alive comments, when it asks whether its session holds (tests shorten it). */
  liveKeepAliveMs?: number;
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

const isWildcardHost = (host: string) => host === '0.0.0.0' || host === '::';
/** Absent or 'memory://': the database in memory, the files in temporary folders. */
const isOnDisk = (options: ServerOptions) => !!options.dataDir && options.dataDir !== 'memory://';

/**
 * The storage first: a bucket that refuses the start does so before the database is touched.
 * Resumable uploads sit beside uploads/, on the same file system, so that a finished upload
 * is moved by a rename; neither folder is made when the files live in a bucket.
 */
async function openFileStorage(options: ServerOptions): Promise<FileStorage> {
  if (options.s3) return openStorage({ s3: options.s3 });
  const localFolder = async (name: string) =>
    isOnDisk(options) ? join(options.dataDir!, name) : await mkdtemp(join(tmpdir(), `${name}-`));
  return openStorage({ uploadsDir: await localFolder('uploads'), tusDir: await localFolder('tus') });
}

/**
 * Only a database created by this very start is seeded (in the transaction that creates it,
 * db/migrate.ts): an admin who deleted every demo class must not see them come back at the
 * next restart, and of several processes starting at once only one seeds. Its files go
 * through a journal like any write's, recorded in that transaction.
 */
async function openSeededDatabase(
  options: ServerOptions,
  storage: FileStorage,
  log: Logger,
): Promise<OpenedDatabase> {
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
  if (db.fresh) await seedFiles.committed().catch(closeAndThrow(db));
  return db;
}

const closeAndThrow = (db: Database) => async (err: unknown) => {
  await db.close();
  throw err;
};

/** The administrator as the start's policy wants it, and the row shapes of this build. */
async function prepareDatabase(
  db: Database,
  options: ServerOptions,
  host: string,
  log: Logger,
): Promise<void> {
  await prepareAdmin(db.query, log, {
    username: options.adminUsername ?? DEFAULT_ADMIN.username,
    password: options.adminPassword,
    host,
    allowDemoPassword: options.allowDemoPassword ?? false,
    requirePassword: options.requireAdminPassword ?? false,
  });
  // After the migrations: a changed row shape makes older delta cursors pull whole tables.
  await recordRowShapes(db, entities);
  const duplicates = await duplicateGroups(db.query, entities);
  if (duplicates.length > 0) log.warn({ duplicates }, duplicatesWarning(duplicates));
}

function listen(app: Hono<AppEnv>, options: ServerOptions, host: string, ops: Ops): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: options.port ?? 8080,
        hostname: host,
        serverOptions: nodeServerTimeouts(ops.timeouts),
      },
      () => resolve(s as Server),
    );
    s.once('error', reject);
    answerClientErrors(s as Server);
  });
}

/** Runs `task` now and every `ms`; returns the function that stops it. */
const SIX_HOURS_MS = 6 * 60 * 60 * 1000;

/** The timers of a running server; returns the function that stops them all. */
function startUpkeep(
  db: Database,
  storage: FileStorage,
  resumable: ResumableUploads | undefined,
  options: ServerOptions,
  log: Logger,
): () => Promise<void> {
  // Stored replies and audit entries older than their retention windows go, now and every six hours.
  const retention = options.idempotencyRetentionDays ?? DEFAULT_RETENTION_DAYS;
  const auditRetention = options.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  const stoppers = [
    repeatEvery(
      SIX_HOURS_MS,
      () => pruneKeys(db.query, retention),
      (err) => log.error({ err }, 'Pruning stored replies failed'),
    ),
    repeatEvery(
      SIX_HOURS_MS,
      () => pruneAudit(db.query, auditRetention),
      (err) => log.error({ err }, 'Pruning the audit trail failed'),
    ),
    startSweepingFiles(storage, db),
  ];
  const stopSweeping = resumable?.startSweeping();
  if (stopSweeping) stoppers.push(stopSweeping);
  return async () => {
    await Promise.all(stoppers.map((stop) => stop()));
  };
}

/** Tells `npm run backup` where the running server listens and its token (backup/route.ts). */
async function publishBackup(backup: BackupOptions | undefined, host: string, port: number) {
  if (!backup) return undefined;
  const reachable = isLoopbackHost(host) || isWildcardHost(host) ? '127.0.0.1' : host;
  return publishBackupAccess(backup.dataDir, {
    url: `http://${reachable}:${port}`,
    token: backup.token,
    pid: process.pid,
  });
}

/** The address to tell people: a wildcard host is reached as localhost, IPv6 in brackets. */
function shownUrl(host: string, port: number): string {
  const shownHost = isWildcardHost(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}`;
}

/** What hears the database's notifications: the live stream (not in legacy mode) and the session cache. */
async function openListeners(db: Database, ops: Ops, options: ServerOptions, log: Logger) {
  const live = options.legacy
    ? undefined
    : await openLive(db, ops, {
        onError: (err) => log.error({ err }, 'Could not read the change sequence for the live stream'),
        keepAliveMs: options.liveKeepAliveMs,
      });
  const sessionCache = await openSessionCache(db).catch(async (err) => {
    await live?.close();
    throw err;
  });
  return { live, sessionCache };
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const storage = await openFileStorage(options);
  const log = options.logger ?? quietLogger();
  if (options.logger) setProcessLog(options.logger);
  const db = await openSeededDatabase(options, storage, log);
  await prepareDatabase(db, options, host, log).catch(closeAndThrow(db));

  const resumable = options.legacy
    ? undefined
    : openResumableUploads({
        storage,
        db,
        pendingLimitBytes: (options.uploadPendingMb ?? DEFAULT_PENDING_MB) * 1024 * 1024,
      });
  // `npm run backup` asks the running server, which alone may read PGlite's folder meanwhile.
  const backup =
    isOnDisk(options) && !options.databaseUrl
      ? { dataDir: options.dataDir!, db, token: newBackupToken() }
      : undefined;
  const ops = createOps(db, { log, timeouts: options.timeouts, metricsToken: options.metricsToken });
  ops.readiness.add('object storage', async () => {
    const reason = await storage.ready();
    if (reason) throw new Error(reason);
  });
  const { live, sessionCache } = await openListeners(db, ops, options, log).catch(closeAndThrow(db));
  const app = createApp({
    ...appOptionsOf(options),
    ops,
    db,
    storage,
    backup,
    resumable,
    live,
    sessionCache,
  });
  const server = await listen(app, options, host, ops).catch(closeAndThrow(db));
  const stopUpkeep = startUpkeep(db, storage, resumable, options, log);
  const port = (server.address() as AddressInfo).port;
  const unpublishBackup = await publishBackup(backup, host, port);
  const inFlight = trackRequests(server);
  const shutdown = (timing: ShutdownTiming) =>
    shutDown(
      {
        server,
        readiness: ops.readiness,
        inFlight,
        endStreams: () => live?.endStreams(),
        async beforeClose() {
          await unpublishBackup?.();
        },
        // After a sweep or pruning in flight: it must not meet a closed database.
        closeDatabase: async () => {
          await stopUpkeep();
          await live?.close();
          await sessionCache.close();
          await db.close();
        },
      },
      timing,
    );
  const url = shownUrl(host, port);
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

/** The app's settings that come straight from the server's options. */
const appOptionsOf = (options: ServerOptions) => ({
  legacy: options.legacy,
  staticDir: options.staticDir,
  trustProxy: options.trustProxy,
  apiOrigin: options.apiOrigin,
  allowedOrigins: options.allowedOrigins,
  sessions: options.sessions,
  throttle: options.throttle,
});
