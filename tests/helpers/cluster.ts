/**
 * The server as an operator scales it out: several processes of the built server
 * (dist-server/index.js) on ONE PostgreSQL database, haproxy in front of them with
 * deploy/haproxy.cfg (round robin, health checks on /readyz, faster here), started all at
 * once on the empty database. It is a TestServer: its url is haproxy's, so the sync suites
 * run through the balancer unchanged (the `scale-out` vitest project sets TEST_CLUSTER).
 *
 * `restart()` is the fault of this setting: ONE process is killed with SIGKILL (a crash, no
 * goodbye; the others go on serving), and a fresh one starts on its port in the background.
 * Each restart kills the next process in turn.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  freePort,
  type Haproxy,
  type ServerProcess,
  startHaproxy,
  startProcess,
  waitFor200,
} from '../../scripts/cluster-lib.mjs';
import { openStorage } from '../../server/storage';
import { ADMIN, createTestDatabase, type TestServer, type TestServerOptions } from './server';

export interface ClusterServer extends TestServer {
  /** The processes as they are now (a restart replaces one). */
  processes: ServerProcess[];
  /** Every JSON line the processes printed, parsed. */
  lines: Record<string, unknown>[];
}

export async function startClusterServer(opts: TestServerOptions, count: number): Promise<ClusterServer> {
  const maintenanceUrl = process.env.TEST_DATABASE_URL;
  if (!maintenanceUrl)
    throw new Error('A cluster needs PostgreSQL: set TEST_DATABASE_URL (npm run test:postgres)');
  if (opts.settings || opts.port || opts.dataDir)
    throw new Error('A cluster server takes no settings, port or data folder of its own');
  const database = await createTestDatabase(maintenanceUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-test-'));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // pool.end() resolves before its connections have closed, and the drop (WITH FORCE) that
  // follows terminates those still open: their 'terminating connection' belongs to the
  // teardown. Without a listener, the pool throws it as an uncaught error into the test run.
  pool.on('error', (err: Error & { code?: string }) => {
    if (err.code !== '57P01') console.warn(`Test database pool: ${err.message}`);
  });
  const lines: Record<string, unknown>[] = [];
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    STATIC_DIR: opts.staticDir ?? join(dataDir, 'no-app'),
    API_EXTENSIONS: opts.legacy ? 'off' : 'on',
    DEMO_DATA: opts.seedDemo ? 'on' : 'off',
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
  };
  const onLine = (line: string) => {
    try {
      lines.push(JSON.parse(line));
    } catch {}
  };
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const start = (port: number) => startProcess({ port, env, onLine });

  let processes: ServerProcess[] = [];
  let haproxy: Haproxy | undefined;
  const stopAll = async () => {
    await Promise.all(processes.filter(Boolean).map((p) => p.stop('SIGTERM')));
    processes = [];
  };
  const startAll = async () => {
    // Each one kept as soon as it runs, so that a failed start stops the others.
    const started = await Promise.allSettled(
      ports.map(async (port, i) => {
        processes[i] = await start(port);
      }),
    );
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    await Promise.all(ports.map((p) => waitFor200(`http://127.0.0.1:${p}/readyz`)));
  };
  try {
    await startAll();
    haproxy = await startHaproxy({
      port: await freePort(),
      servers: ports,
      inter: '300ms',
      fastinter: '100ms',
    });
    // Ready when haproxy sees every process up: a round robin over all of them from the start.
    await waitForAllUp(haproxy.url, count);
  } catch (err) {
    await stopAll();
    await haproxy?.stop();
    await pool.end();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const front = haproxy;
  let nextVictim = 0;
  const replacing: Record<number, Promise<void>> = {};

  const server: ClusterServer = {
    url: front.url,
    apiRoot: `${front.url}/api`,
    port: front.port,
    routes: [],
    dataDir,
    // The processes share DATA_DIR's folders; the test reads them through the same storage.
    storage: await openStorage({ uploadsDir: join(dataDir, 'uploads'), tusDir: join(dataDir, 'tus') }),
    databaseUrl: database.url,
    lines,
    get processes() {
      return processes;
    },
    async close() {
      await Promise.allSettled(Object.values(replacing));
      await stopAll();
      await front.stop();
      await pool.end();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
    async restart() {
      // The crash is over when the process is gone; its replacement starts meanwhile, while
      // the clients carry on through the others (awaited before the cluster stops).
      const i = nextVictim++ % ports.length;
      await (replacing[i] ?? Promise.resolve());
      await processes[i].stop('SIGKILL');
      replacing[i] = start(ports[i]).then((p) => {
        processes[i] = p;
      });
    },
    async stop() {
      await Promise.allSettled(Object.values(replacing));
      await stopAll();
    },
    start: startAll,
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
  };
  return server;
}

/**
 * Waits until haproxy reaches all `count` processes: /healthz names the process (its pid),
 * and a round robin over servers that are all up answers from every one of them.
 */
async function waitForAllUp(url: string, count: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const pids = new Set<string>();
    for (let i = 0; i < count * 2; i++) {
      const res = await fetch(`${url}/healthz`).catch(() => null);
      if (res?.status === 200) pids.add((await res.json()).pid);
    }
    if (pids.size === count) return;
    if (Date.now() > until) throw new Error(`haproxy did not reach ${count} processes within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
