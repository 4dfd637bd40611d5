/** A client as the app builds it (local store, API client with a session), for Node tests. */

import { afterEach } from 'vitest';
import type { LocalDb } from '../../src/db/database';
import { openLocalDb } from '../../src/db/open';
import { createApi } from '../../src/sync/api/api-client';
import { signIn } from '../../src/sync/api/sign-in-requests';
import { type ReplayReport, replay, type SyncContext } from '../../src/sync/replay';
import { cookieFetch } from './cookie-fetch';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { ADMIN, startTestServer, type TestServer, type TestServerOptions } from './server';

let n = 0;

export async function syncClient(apiRoot: string): Promise<SyncContext & { db: LocalDb }> {
  const db = openLocalDb(`sync-test-${process.pid}-${++n}`);
  await db.open();
  const api = createApi({ root: apiRoot, fetch: cookieFetch(), timeoutMs: 5000 });
  const result = await signIn(api, ADMIN.username, ADMIN.password);
  if (!result.ok) throw new Error(`Sign-in failed: ${result.message}`);
  return { db, api };
}

/**
 * Replays until the outbox is empty or only failed entries are left, letting backoff time
 * pass at once between rounds. Throws when it does not converge.
 */
export async function drain(ctx: SyncContext, maxRounds = 50): Promise<ReplayReport[]> {
  const reports: ReplayReport[] = [];
  for (let round = 0; round < maxRounds; round++) {
    const report = await replay(ctx);
    reports.push(report);
    if (report.waiting === 0) return reports;
    await ctx.db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Outbox did not drain: ${JSON.stringify(await ctx.db.outbox.toArray())}`);
}

/**
 * The per-test resources of a sync test file, each stopped and removed after its test: a
 * server with its own data, the fault proxy in front of it, a signed-in client. Call once at
 * the top of the file.
 */
export function syncFixtures() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  const fixtures = {
    async server(opts: TestServerOptions = {}): Promise<TestServer> {
      const server = await startTestServer(opts);
      cleanups.push(() => server.close());
      return server;
    },
    async proxy(server: TestServer): Promise<FaultProxy> {
      const proxy = await startFaultProxy(server.port);
      cleanups.push(() => proxy.close());
      return proxy;
    },
    async client(apiRoot: string) {
      const ctx = await syncClient(apiRoot);
      cleanups.push(async () => {
        ctx.db.close();
        await ctx.db.delete();
      });
      return ctx;
    },
    /** A server, the proxy in front of it, and a client that talks through the proxy. */
    async proxied(opts: TestServerOptions = {}) {
      const server = await fixtures.server(opts);
      const proxy = await fixtures.proxy(server);
      const ctx = await fixtures.client(`${proxy.url}/api`);
      return { server, proxy, ctx };
    },
  };
  return fixtures;
}
