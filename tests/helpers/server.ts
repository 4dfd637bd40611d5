/**
 * Starts the real reference server over HTTP for tests. Each server gets its own data: a
 * fresh temp folder for PGlite by default, or, when TEST_DATABASE_URL points at a PostgreSQL
 * maintenance database, a fresh database t_<random> created there and dropped on close, so
 * the same suites run on both engines.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../server/app/start';
import type { FileStorage } from '../../server/storage';
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import { type WireRequest, wireRequest } from '../../src/contract/wire-request';
import { onS3, testStorageSettings } from './storage';

export const ADMIN = { username: 'admin', password: 'admin123' } as const;

export interface TestServerOptions {
  legacy?: boolean;
  dataDir?: string;
  port?: number;
  staticDir?: string;
  seedDemo?: boolean;
  /** Any other server setting (trustProxy, sessions, throttle, apiOrigin ...). */
  settings?: Partial<ServerOptions>;
}

export interface TestServer {
  url: string;
  apiRoot: string;
  port: number;
  /** Every route the server answers under /api, as mounted (server/http/mounted.ts). */
  routes: RunningServer['routes'];
  dataDir: string;
  /** Where its files live: DATA_DIR/uploads, or a bucket with TEST_STORAGE=s3 (helpers/storage.ts). */
  storage: FileStorage;
  /** The test database when running on PostgreSQL (TEST_DATABASE_URL); undefined on PGlite. */
  databaseUrl?: string;
  /** Stops the server and removes what the helper created (temp folder, test database). */
  close(): Promise<void>;
  /** Stops and starts again on the same port with the same data. */
  restart(): Promise<void>;
  /** Runs SQL on the server's database, to look at what the API never returns (hashes). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops answering (the port closes) and keeps the data, until start(). */
  stop(): Promise<void>;
  /** Starts a stopped server again on the same port with the same data. */
  start(): Promise<void>;
}

export async function createTestDatabase(
  maintenanceUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: maintenanceUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: maintenanceUrl });
      await c.connect();
      // FORCE: a pool connection that is still closing must not keep the database alive.
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A server on a folder of its own starts from a copy of one made at the start of the run
 * (helpers/pglite-pristine.ts): at the current schema, with the demo data when asked. It saves
 * a few seconds a start. On S3 the demo's files would be missing from the bucket, so a seeded
 * server there seeds itself.
 */
async function startFromPreparedFolder(dataDir: string, opts: TestServerOptions): Promise<void> {
  const folder = opts.seedDemo
    ? onS3()
      ? undefined
      : process.env.PGLITE_DEMO_FOLDER
    : process.env.PGLITE_SCHEMA_FOLDER;
  if (!folder) return;
  // coreutils' cp: several times quicker than Node's fs.cp over the cluster's thousand files.
  await promisify(execFile)('cp', ['-r', `${folder}/.`, dataDir]);
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  // The scale-out project: several server processes behind haproxy stand for the server.
  if (process.env.TEST_CLUSTER) {
    const { startClusterServer } = await import('./cluster');
    return startClusterServer(opts, Number(process.env.TEST_CLUSTER));
  }
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'server-test-')));
  const maintenanceUrl = process.env.TEST_DATABASE_URL;
  if (ownDir && !maintenanceUrl) await startFromPreparedFolder(dataDir, opts);
  const database = maintenanceUrl ? await createTestDatabase(maintenanceUrl) : undefined;
  const storage = await testStorageSettings();

  const start = (port: number) =>
    startServer({
      port,
      dataDir,
      databaseUrl: database?.url,
      adminUsername: ADMIN.username,
      adminPassword: ADMIN.password,
      staticDir: opts.staticDir,
      legacy: opts.legacy,
      seedDemo: opts.seedDemo ?? false,
      s3: storage.s3,
      ...opts.settings,
    });

  let running: RunningServer = await start(opts.port ?? 0);
  let stopped = false;
  const server: TestServer = {
    url: running.url,
    apiRoot: running.apiRoot,
    port: running.port,
    routes: running.routes,
    dataDir,
    storage: running.storage,
    databaseUrl: database?.url,
    async close() {
      if (!stopped) await running.close();
      await database?.drop();
      await storage.stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async stop() {
      await running.close();
      stopped = true;
    },
    async start() {
      running = await start(server.port);
      stopped = false;
    },
    query: (sql, params) => running.query(sql, params),
  };
  return server;
}

/** Signs in and returns the Cookie header value to send with later requests. */
export async function signIn(
  apiRoot: string,
  username: string = ADMIN.username,
  password: string = ADMIN.password,
): Promise<string> {
  const res = await fetch(`${apiRoot}/Admin_access/login.php`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 200 || !setCookie) throw new Error(`Sign-in failed with ${res.status}`);
  return setCookie.split(';')[0];
}

export interface ApiReply {
  status: number;
  /** Parsed JSON, or the raw text when the reply is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary reply fields.
  body: any;
  headers: Headers;
}

async function toReply(res: Response): Promise<ApiReply> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/**
 * GET with query parameters and POST with a body: a plain object goes as JSON, a string as a
 * raw JSON-typed body (to send malformed JSON), FormData / URLSearchParams as themselves.
 */
export function api(apiRoot: string, cookie?: string) {
  const base = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(cookie ? { Cookie: cookie } : {}),
    ...extra,
  });
  return {
    async get(path: string, query: Record<string, string | number> = {}): Promise<ApiReply> {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      return toReply(await fetch(`${apiRoot}/${path}${qs ? `?${qs}` : ''}`, { headers: base() }));
    },
    async post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiReply> {
      const raw = body instanceof FormData || body instanceof URLSearchParams;
      const init: RequestInit = {
        method: 'POST',
        headers: base(raw ? headers : { 'Content-Type': 'application/json', ...headers }),
      };
      if (body !== undefined)
        init.body = raw ? (body as FormData) : typeof body === 'string' ? body : JSON.stringify(body);
      return toReply(await fetch(`${apiRoot}/${path}`, init));
    },
    /** A request as the client builds it (src/contract/wire-request.ts). */
    async send(request: WireRequest, headers: Record<string, string> = {}): Promise<ApiReply> {
      const qs = new URLSearchParams(request.query).toString();
      const url = `${apiRoot}/${request.path}${qs ? `?${qs}` : ''}`;
      if (request.method === 'GET') return toReply(await fetch(url, { headers: base(headers) }));
      let body: FormData | string = JSON.stringify(request.body ?? {});
      if (request.encoding === 'multipart') {
        const form = new FormData();
        for (const [k, v] of Object.entries(request.body ?? {}))
          form.append(k, v instanceof Blob ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
        body = form;
      } else headers = { 'Content-Type': 'application/json', ...headers };
      return toReply(await fetch(url, { method: 'POST', headers: base(headers), body }));
    },
  };
}

/** The titles of an entity's records as the server lists them now (a fresh admin session), sorted. */
export async function serverTitles(apiRoot: string, entity: EntityDescription): Promise<string[]> {
  const reply = await api(apiRoot, await signIn(apiRoot)).send(wireRequest(entity, { op: 'list' }));
  return (reply.body[listFieldOf(entity)] as Record<string, string>[]).map((r) => r[entity.title]).sort();
}

/**
 * The usual prologue of a server test file: a server started before its tests, an admin
 * signed in, the server stopped after. Read `server` and `client` inside the tests.
 */
export function signedInSuite(opts: TestServerOptions = {}) {
  const suite = {} as { server: TestServer; client: ReturnType<typeof api> };
  beforeAll(async () => {
    suite.server = await startTestServer(opts);
    suite.client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
    // Starting a server (PGlite, migrations, and an S3 emulator in the s3 project) can take over
    // 10 s on a busy machine.
  }, 120_000);
  afterAll(() => suite.server?.close());
  return suite;
}
