/**
 * The reference server: one Hono app serving the legacy API under /api (with our extensions
 * unless `legacy`), uploaded files, and the built PWA.
 *
 * Order of registration matters: the body size limit comes first; login and logout come
 * before the session check; every other /api path passes it first (so an unknown path
 * without a session is a 401, and with one a JSON 404), the resumable uploads' endpoint
 * included; the static app and its index.html fallback come last.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { entities } from '../src/contract/entities';
import { ensureAdmin } from './auth/admin';
import { requireSession } from './auth/middleware';
import { registerAuthRoutes } from './auth/routes';
import { type Database, openDatabase } from './db';
import { registerEntityRoutes } from './entities/routes';
import { registerBatchRoute } from './http/batch';
import type { AppEnv } from './http/env';
import { limitBody } from './http/limit';
import { fail, TEXT } from './http/reply';
import { registerStatic } from './http/static';
import { seedDemo } from './seed';
import { openResumableUploads, type ResumableUploads } from './uploads/resumable';
import { registerUploadRoutes } from './uploads/serve';

export const API_PREFIX = '/api';

export interface AppOptions {
  db: Database;
  /** Behave like the plain PHP API: no id in add replies, Idempotency-Key and since ignored. */
  legacy?: boolean;
  /** Folder holding uploads/{folder}/{name}. */
  uploadsDir: string;
  /** The built PWA (dist/); not served when absent or missing. */
  staticDir?: string;
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

  app.use(`${API_PREFIX}/*`, limitBody);
  registerAuthRoutes(app, db, API_PREFIX);
  app.use(`${API_PREFIX}/*`, requireSession(db));
  // The PHP API has no resumable uploads: the client detects the 404 and sends files inline.
  const resumable = legacy ? undefined : options.resumable;
  resumable?.register(app, API_PREFIX);
  registerEntityRoutes(app, entities, db, API_PREFIX, { legacy, uploadsDir: options.uploadsDir, resumable });
  // Legacy mode is the plain PHP API, which has no batches (the client falls back).
  if (!legacy) registerBatchRoute(app, db, entities, API_PREFIX);
  registerUploadRoutes(app, options.uploadsDir, API_PREFIX);
  registerStatic(app, options.staticDir, API_PREFIX);
  return app;
}

export interface ServerOptions {
  /** 0 picks a free port. Default 8080. */
  port?: number;
  /** Default 127.0.0.1; index.ts passes 0.0.0.0. */
  host?: string;
  /**
   * On-disk data (PGlite files, uploads, partial resumable uploads in tus/). Absent or
   * 'memory://': in memory, uploads in temp folders.
   */
  dataDir?: string;
  /** A real PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  adminUsername?: string;
  adminPassword?: string;
  staticDir?: string;
  legacy?: boolean;
  /** Classes 1 to 12 when the database is created by this start. Default false. */
  seedDemo?: boolean;
}

export interface RunningServer {
  url: string;
  /** url + '/api': the API root a client is configured with. */
  apiRoot: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_ADMIN = { username: 'admin', password: 'admin123' } as const;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const db = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  try {
    await ensureAdmin(
      db.query,
      options.adminUsername ?? DEFAULT_ADMIN.username,
      options.adminPassword ?? DEFAULT_ADMIN.password,
    );
    // Only a database created by this very start is seeded: an admin who deleted every demo
    // class must not see them come back at the next restart.
    if (options.seedDemo && db.fresh) await db.tx(seedDemo);
  } catch (err) {
    await db.close();
    throw err;
  }

  const onDisk = options.dataDir && options.dataDir !== 'memory://';
  const uploadsDir = onDisk ? join(options.dataDir!, 'uploads') : await mkdtemp(join(tmpdir(), 'uploads-'));
  await mkdir(uploadsDir, { recursive: true });
  // Beside uploads/, on the same file system, so that a finished upload is moved by a rename.
  const resumableDir = onDisk ? join(options.dataDir!, 'tus') : await mkdtemp(join(tmpdir(), 'tus-'));
  await mkdir(resumableDir, { recursive: true });
  const resumable = options.legacy ? undefined : openResumableUploads(resumableDir);
  const app = createApp({ db, legacy: options.legacy, uploadsDir, staticDir: options.staticDir, resumable });

  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 8080, hostname: host }, () => resolve(s));
    s.once('error', reject);
  }).catch(async (err) => {
    await db.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  const stopSweeping = resumable?.startSweeping();
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;

  return {
    url,
    apiRoot: `${url}${API_PREFIX}`,
    port,
    async close() {
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
