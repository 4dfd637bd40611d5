/**
 * Getting going again after the server could not be reached (src/sync/recovery.ts,
 * scheduler.ts), through tests/helpers/fault-proxy.ts against the real server. Asserted on
 * the outbox's state (which entries are due, what reached the server), never on elapsed time:
 * - changes whose attempts got no answer wait with backoff, and that wait ends as soon as the
 *   server answers anything: a probe, a pull, a reply to another change;
 * - a wait the server asked for (Retry-After) is kept;
 * - `online` and the page shown again end the waits at once and sync;
 * - nothing is claimed while the context is offline: not by the service worker's sync event
 *   (the browser fires it on its own view of the network), not by a round that began online
 *   and got the lock after the network went.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import type { LocalDb } from '../../src/db/database';
import { mutate } from '../../src/db/mutate';
import { SYNC_LOCK, withLock } from '../../src/sync/lock';
import { awaitServer, networkWaitsDue, probeServer } from '../../src/sync/recovery';
import { replay, type SyncContext } from '../../src/sync/replay';
import { SyncScheduler } from '../../src/sync/scheduler';
import { syncNow, syncWhenOnline } from '../../src/sync/sync-now';
import { startTestServer, type TestServer } from '../helpers/server';
import { syncFixtures } from '../helpers/sync-client';

// One server for the file (a start costs seconds); each test has its own proxy, local store
// and session, and looks only at its own requests and entries.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const fixtures = syncFixtures();
async function proxied() {
  const proxy = await fixtures.proxy(server);
  const ctx = await fixtures.client(`${proxy.url}/api`);
  return { proxy, ctx };
}

const addClass = (ctx: SyncContext, name: string) =>
  mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: name } });

const HOUR = 3_600_000;

/**
 * Replays `times` times while the server is unreachable, each attempt due at once; then the
 * waits are stretched to an hour, as after a long run of failures, so that only an ended wait
 * (never a backoff running out during the test) can send them.
 */
async function failRepeatedly(ctx: SyncContext, times: number) {
  for (let i = 0; i < times; i++) {
    await ctx.db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
    expect(await replay(ctx)).toMatchObject({ sent: 0 });
  }
  const waiting = await ctx.db.outbox.toArray();
  expect(waiting.every((e) => e.unreachable && e.nextAttemptAt > Date.now())).toBe(true);
  await ctx.db.outbox.toCollection().modify({ nextAttemptAt: Date.now() + HOUR });
}

const entries = (db: LocalDb) => db.outbox.orderBy('seq').toArray();

describe('after the server could not be reached', () => {
  it('repeated failures leave changes waiting for the server; a probe that gets an answer makes them due at once, a Retry-After is kept', async () => {
    const { proxy, ctx } = await proxied();
    await addClass(ctx, 'Down 1');
    await addClass(ctx, 'Down 2');
    await proxy.down('refuse');
    await failRepeatedly(ctx, 4);
    // Four attempts without an answer, each marked as such.
    expect((await entries(ctx.db)).map((e) => [e.attempts, e.unreachable])).toEqual([
      [4, true],
      [4, true],
    ]);
    expect(await probeServer(ctx.api)).toBe(false);

    await proxy.up();
    // While those wait, another change meets a server that asks for an hour: that wait is the
    // server's, not the network's.
    const { entryId: asked } = await addClass(ctx, 'Asked to wait');
    proxy.failNext(/addclasses\.php/, { status: 503, retryAfter: 3600 });
    expect(await replay(ctx)).toMatchObject({ sent: 0, waiting: 3, unreachable: 2 });

    // Our test server has no /readyz: its 404 is an answer all the same.
    expect(await probeServer(ctx.api)).toBe(true);
    expect(await awaitServer(ctx, { everyMs: () => 0 })).toBe(true);
    const now = Date.now();
    const after = await entries(ctx.db);
    expect(after.filter((e) => e.id !== asked).every((e) => e.nextAttemptAt <= now)).toBe(true);
    expect(after.find((e) => e.id === asked)!.nextAttemptAt).toBeGreaterThan(now + HOUR / 2);

    // They go in the next replay; the one that was asked to wait does not.
    expect(await replay(ctx)).toMatchObject({ sent: 2, waiting: 1, unreachable: 0 });
    expect((await entries(ctx.db)).map((e) => e.id)).toEqual([asked]);
  });

  it('a pull that reaches the server ends the waits, and sync sends them in the same call', async () => {
    const { proxy, ctx } = await proxied();
    await addClass(ctx, 'Pulled back');
    await proxy.down('reset');
    await failRepeatedly(ctx, 3);
    expect((await entries(ctx.db))[0]).toMatchObject({ attempts: 3, unreachable: true });
    await proxy.up();
    // The entry is not due (its backoff runs), so replay sends nothing; the pull answers.
    const report = await syncNow(ctx);
    expect(report.pull).toMatchObject({ ok: true });
    expect(report.replay).toMatchObject({ waiting: 0, unreachable: 0 });
    expect(await entries(ctx.db)).toEqual([]);
    expect(proxy.log.filter((r) => /addclasses/.test(r.target) && r.replied)).toHaveLength(1);
  });

  it('a reply to another change ends the wait of one whose request got no answer, within the same replay', async () => {
    const { proxy, ctx } = await proxied();
    const first = await addClass(ctx, 'Reset once');
    const second = await addClass(ctx, 'Answered');
    // One entry per round: the first round's connection is reset, the second is answered.
    proxy.resetNext(/addclasses/, 1);
    const report = await replay({ ...ctx, concurrency: 1 });
    expect(report).toMatchObject({ sent: 2, waiting: 0 });
    const sends = proxy.log.filter((r) => r.key === first.entryId).map((r) => r.fault);
    expect(sends).toEqual(['reset', 'pass']);
    expect(proxy.log.filter((r) => r.key === second.entryId).map((r) => r.fault)).toEqual(['pass']);
  });

  it('waits the network caused are told apart: only they are made due', async () => {
    const { proxy, ctx } = await proxied();
    await addClass(ctx, 'Server error');
    // A 500 is the server's own answer: its backoff is not the network's.
    proxy.failNext(/addclasses/, { status: 500 });
    await replay(ctx);
    expect((await entries(ctx.db))[0]).toMatchObject({ unreachable: false });
    expect(await networkWaitsDue(ctx.db)).toBe(0);
    expect((await entries(ctx.db))[0].nextAttemptAt).toBeGreaterThan(Date.now());
  });
});

describe('the scheduler', () => {
  /** A window and a document as the scheduler sees them. */
  function page() {
    const win = new EventTarget();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    return { win, doc };
  }

  for (const [event, fire] of [
    ['online', (p: ReturnType<typeof page>) => p.win.dispatchEvent(new Event('online'))],
    [
      'the page shown again',
      (p: ReturnType<typeof page>) => p.doc.dispatchEvent(new Event('visibilitychange')),
    ],
  ] as const) {
    it(`${event}: changes waiting for the server are sent at once`, async () => {
      const { proxy, ctx } = await proxied();
      // Probing is not what this test is about: once an hour.
      const scheduler = new SyncScheduler({
        context: async () => ctx,
        sync: syncNow,
        probeEveryMs: () => HOUR,
      });
      const triggers = page();
      scheduler.listen(triggers);
      try {
        await addClass(ctx, `Back on ${event}`);
        await proxy.down('refuse');
        await failRepeatedly(ctx, 3);
        await proxy.up();
        fire(triggers);
        await expect.poll(() => ctx.db.outbox.count(), { timeout: 30_000 }).toBe(0);
        expect(proxy.log.filter((r) => /addclasses/.test(r.target) && r.replied)).toHaveLength(1);
      } finally {
        scheduler.stop();
      }
    });
  }

  it('probes while changes wait for the server, and sends them when it answers', async () => {
    const { proxy, ctx } = await proxied();
    const scheduler = new SyncScheduler({ context: async () => ctx, sync: syncNow, probeEveryMs: () => 50 });
    try {
      await addClass(ctx, 'Probed back');
      await proxy.down('refuse');
      await failRepeatedly(ctx, 3);
      // A run that cannot reach the server starts the probe.
      expect((await scheduler.request())?.replay).toMatchObject({ sent: 0, unreachable: 1 });
      await proxy.up();
      await expect.poll(() => ctx.db.outbox.count(), { timeout: 30_000 }).toBe(0);
      expect(proxy.log.some((r) => r.target === '/readyz')).toBe(true);
    } finally {
      scheduler.stop();
    }
  });
});

describe('offline', () => {
  it("the service worker's sync event claims nothing while its context is offline, so the change can still be undone; online, sends it once", async () => {
    const { proxy, ctx } = await proxied();
    const { entryId } = await addClass(ctx, 'Sent by the worker');
    const signedIn = proxy.log.length;
    let online = false;
    const worker = { ...ctx, online: () => online };
    const options = { probeEveryMs: 50, probeForMs: 30_000 };

    expect(await syncWhenOnline(worker, options)).toBeNull();
    expect((await entries(ctx.db)).map((e) => [e.id, e.attempts, e.status])).toEqual([
      [entryId, 0, 'pending'],
    ]);
    expect(proxy.log.slice(signedIn)).toEqual([]);

    online = true;
    expect((await syncWhenOnline(worker, options))?.replay).toMatchObject({ sent: 1, waiting: 0 });
    expect(await entries(ctx.db)).toEqual([]);
    expect(proxy.log.filter((r) => /addclasses/.test(r.target) && r.replied)).toHaveLength(1);
  });

  it('a round that began online claims nothing saved after the network went, even once it gets the lock', async () => {
    const { proxy, ctx } = await proxied();
    let online = true;
    const window = { ...ctx, online: () => online };
    let release = () => {};
    const held = withLock(SYNC_LOCK, () => new Promise<void>((resolve) => (release = resolve)));
    // Began online, and waits for the lock (another replayer holds it).
    const round = syncNow(window);
    const signedIn = proxy.log.length;
    online = false;
    const { entryId } = await addClass(ctx, 'Saved offline');
    release();
    await held;

    expect((await round).replay).toMatchObject({ offline: true, sent: 0, waiting: 1 });
    expect((await entries(ctx.db)).map((e) => [e.id, e.attempts, e.status])).toEqual([
      [entryId, 0, 'pending'],
    ]);
    expect(proxy.log.slice(signedIn)).toEqual([]);

    online = true;
    expect((await syncNow(window)).replay).toMatchObject({ offline: false, sent: 1, waiting: 0 });
    expect(proxy.log.filter((r) => /addclasses/.test(r.target) && r.replied)).toHaveLength(1);
  });
});
