/** A client as the app builds it (local store, API client with a session), for Node tests. */
import { type LocalDb, openLocalDb } from '../../src/db/database';
import { createApi } from '../../src/sync/api';
import { signIn } from '../../src/sync/auth';
import { type ReplayReport, replay, type SyncContext } from '../../src/sync/replay';
import { cookieFetch } from './cookie-fetch';
import { ADMIN } from './server';

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
