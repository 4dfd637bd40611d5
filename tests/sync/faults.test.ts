/**
 * One fault at a time through tests/helpers/fault-proxy.ts, against the real server with its
 * extensions (Idempotency-Key dedup). Each test checks exactly-once delivery (the server has
 * each record once, the proxy saw no second request after a processed reply) and an empty
 * outbox at the end. The property test (property.test.ts) mixes these faults at random.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity, classEntity, seriesEntity, subjectEntity } from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { mutate, type Values } from '../../src/db/mutate';
import { createApi } from '../../src/sync/api/api-client';
import { signIn } from '../../src/sync/api/sign-in-requests';
import { replay, type SyncContext } from '../../src/sync/replay';
import { cookieFetch } from '../helpers/cookie-fetch';
import { listFieldOf, listPath } from '../helpers/entry-requests';
import type { FaultProxy, ProxiedRequest } from '../helpers/fault-proxy';
import { pngFile } from '../helpers/files';
import { ADMIN } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function setup(opts: { timeoutMs?: number } = {}) {
  const { server, proxy, ctx } = await fixtures.proxied();
  if (opts.timeoutMs !== undefined) {
    // A short timeout so that a hung request is given up quickly; the session cookie of the
    // first client does not carry over, so sign in again. Sign-in hashes a password (scrypt):
    // on a loaded machine, or a cold process behind the balancer, it can outlast the short
    // timeout, so it gets the default one; the cookie is shared through `fetch`.
    const root = `${proxy.url}/api`;
    const fetch = cookieFetch();
    const result = await signIn(createApi({ root, fetch }), ADMIN.username, ADMIN.password);
    if (!result.ok) throw new Error(`Sign-in failed: ${result.message}`);
    ctx.api = createApi({ root, fetch, timeoutMs: opts.timeoutMs });
  }
  return { server, proxy, ctx };
}

async function serverRows(ctx: SyncContext, entity: EntityDescription) {
  const outcome = await ctx.api.request(listPath(entity), { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error(`no reply listing ${entity.name}`);
  return outcome.body[listFieldOf(entity)] as Record<string, unknown>[];
}

const add = async (ctx: SyncContext, entity: EntityDescription, values: Values) =>
  mutate(ctx.db, { op: 'add', entity, values });

/** The requests that carried one outbox entry, in order. */
const sendsOf = (proxy: FaultProxy, key: string | null) => proxy.log.filter((r) => r.key === key);

/**
 * The same, without the plain sends that the client gave up on before their reply came (its
 * short timeout, on a loaded machine): rule 2 lets those go again, and what a test checks is
 * the fault, then the send that went through.
 */
const sendsThrough = (proxy: FaultProxy, key: string | null) =>
  sendsOf(proxy, key).filter((r, i, all) => !(r.fault === 'pass' && !r.replied && i < all.length - 1));

/** Short enough that a hung request is given up quickly, long enough for a loaded machine. */
const HANG_TIMEOUT_MS = 1500;

/**
 * Rule 2 as the proxy sees it: after a send whose reply reached the client, the same entry
 * is never sent again.
 */
function expectNoResendAfterReply(log: readonly ProxiedRequest[]) {
  const answered = new Set<string>();
  for (const r of log) {
    if (!r.key) continue;
    expect(answered.has(r.key), `${r.method} ${r.target} resent after its reply`).toBe(false);
    // A 5xx is retried (behind a balancer, a 502 for a server that died with the request).
    if (r.replied && r.fault === 'pass' && (r.status ?? 0) < 500) answered.add(r.key);
  }
}

async function expectDrained(ctx: SyncContext) {
  expect(await ctx.db.outbox.toArray()).toEqual([]);
}

describe('one fault at a time', () => {
  it('rule 4: a 500 is retried, and the retry is delivered once', async () => {
    const { proxy, ctx } = await setup();
    const { entryId } = await add(ctx, classEntity, { class_name: 'After 500' });
    proxy.failNext(/addclasses\.php/, { status: 500 });
    await drain(ctx);
    expect(sendsOf(proxy, entryId).map((r) => r.fault)).toEqual(['status', 'pass']);
    // The 500 came from the proxy: the server saw the add once.
    expect(sendsOf(proxy, entryId).filter((r) => r.forwarded)).toHaveLength(1);
    expect((await serverRows(ctx, classEntity)).map((r) => r.class_name)).toEqual(['After 500']);
    expectNoResendAfterReply(proxy.log);
    await expectDrained(ctx);
  });

  it("rule 4: a 503's Retry-After: 2 sets the next attempt about 2 s later, not the ~1 s backoff", async () => {
    const { proxy, ctx } = await setup();
    const { entryId } = await add(ctx, classEntity, { class_name: 'After 503' });
    proxy.failNext(/addclasses\.php/, { status: 503, retryAfter: 2 });
    const before = Date.now();
    const report = await replay(ctx);
    const after = Date.now();
    expect(report).toMatchObject({ sent: 0, waiting: 1 });
    const [entry] = await ctx.db.outbox.toArray();
    // The first backoff is 0.5 s to 1.5 s (classify.ts); Retry-After must win over it.
    expect(entry.nextAttemptAt).toBeGreaterThanOrEqual(before + 2000);
    expect(entry.nextAttemptAt).toBeLessThanOrEqual(after + 2000);
    expect(report.nextAttemptAt).toBe(entry.nextAttemptAt);
    // Before that time nothing is sent.
    expect(await replay(ctx)).toMatchObject({ sent: 0, waiting: 1 });
    expect(sendsOf(proxy, entryId)).toHaveLength(1);
    await drain(ctx);
    expect(sendsOf(proxy, entryId).map((r) => r.fault)).toEqual(['status', 'pass']);
    expect((await serverRows(ctx, classEntity)).map((r) => r.class_name)).toEqual(['After 503']);
    await expectDrained(ctx);
  });

  it('rule 2: a request hung past the timeout after the server committed is not applied twice', async () => {
    const { proxy, ctx } = await setup({ timeoutMs: HANG_TIMEOUT_MS });
    const cls = await add(ctx, classEntity, { class_name: 'Hung add' });
    proxy.hangNext(/addclasses\.php/, { forward: true });
    await drain(ctx);
    const sends = sendsThrough(proxy, cls.entryId);
    expect(sends.map((r) => [r.fault, r.forwarded, r.replied])).toEqual([
      ['hang', true, false],
      ['pass', true, true],
    ]);
    expect((await serverRows(ctx, classEntity)).map((r) => r.class_name)).toEqual(['Hung add']);

    // The same for an action: the popular toggle hung after the server applied it.
    const serverClass = String((await serverRows(ctx, classEntity))[0].class_id);
    const subject = await add(ctx, subjectEntity, { subject_name: 'S', subject_content: '<p>s</p>' });
    const series = await add(ctx, seriesEntity, {
      class_id: serverClass,
      subject_id: subject.key,
      series_name: 'Se',
    });
    const book = await add(ctx, bookEntity, {
      class_id: serverClass,
      subject_id: subject.key,
      series_id: series.key,
      book_name: 'Hung toggle',
      book_code: 'HT',
      book_cover: pngFile(),
    });
    await drain(ctx);
    const toggle = await mutate(ctx.db, {
      op: 'set',
      entity: bookEntity,
      key: book.key,
      action: 'popular',
      value: 'Enabled',
    });
    proxy.hangNext(/togglePopular\.php/, { forward: true });
    await drain(ctx);
    expect(sendsThrough(proxy, toggle.entryId).map((r) => r.fault)).toEqual(['hang', 'pass']);
    const books = await serverRows(ctx, bookEntity);
    expect(books).toHaveLength(1);
    expect(books[0]).toMatchObject({ book_name: 'Hung toggle', status: 'Enabled' });
    expectNoResendAfterReply(proxy.log);
    await expectDrained(ctx);
  });

  it('rule 4: a request hung past the timeout that never reached the server is sent again', async () => {
    const { proxy, ctx } = await setup({ timeoutMs: HANG_TIMEOUT_MS });
    const { entryId } = await add(ctx, classEntity, { class_name: 'Hung, not forwarded' });
    proxy.hangNext(/addclasses\.php/, { forward: false });
    await drain(ctx);
    expect(sendsThrough(proxy, entryId).map((r) => [r.fault, r.forwarded])).toEqual([
      ['hang', false],
      ['pass', true],
    ]);
    expect((await serverRows(ctx, classEntity)).map((r) => r.class_name)).toEqual(['Hung, not forwarded']);
    await expectDrained(ctx);
  });

  for (const mode of ['refuse', 'reset'] as const) {
    it(`rule 1: connections ${mode === 'refuse' ? 'refused' : 'reset'} while the server is down lose nothing`, async () => {
      const { proxy, ctx } = await setup();
      await add(ctx, classEntity, { class_name: 'While down 1' });
      await add(ctx, classEntity, { class_name: 'While down 2' });
      await proxy.down(mode);
      const report = await replay(ctx);
      expect(report).toMatchObject({ sent: 0, failed: 0, waiting: 2 });
      const entries = await ctx.db.outbox.toArray();
      expect(entries.every((e) => e.status === 'pending' && e.attempts === 1)).toBe(true);
      // Refused connections never reach the proxy's request log; reset ones never reach the server.
      expect(proxy.log.filter((r) => r.forwarded && /addclasses/.test(r.target))).toEqual([]);
      await proxy.up();
      await drain(ctx);
      expect((await serverRows(ctx, classEntity)).map((r) => r.class_name).sort()).toEqual([
        'While down 1',
        'While down 2',
      ]);
      await expectDrained(ctx);
    });
  }

  it('rules 2 and 3: 300 changes in batches of 100, four in flight, 20% of batch replies lost: each applied once, in order', async () => {
    const { proxy, ctx } = await setup();
    const chains = 150;
    const subject = await add(ctx, subjectEntity, { subject_name: 'Many', subject_content: '<p>x</p>' });
    const keys: { cls: string; series: string }[] = [];
    for (let i = 0; i < chains; i++) {
      const cls = await add(ctx, classEntity, { class_name: `Many C${i}` });
      const series = await add(ctx, seriesEntity, {
        class_id: cls.key,
        subject_id: subject.key,
        series_name: `Many S${i}`,
      });
      keys.push({ cls: cls.entryId!, series: series.entryId! });
    }
    // Every batch may lose its reply after the server committed it (all its items' replies).
    proxy.random({ seed: 17, pass: 4, drop: 1, match: /sync\/batch/ });
    await drain(ctx);
    proxy.random(null);
    expect(proxy.dropped).toBeGreaterThan(0);
    // The changes travelled in batches of many items (the rounds are up to 100 each).
    const batched = proxy.log.filter((r) => r.batched);
    expect(new Set(batched.map((r) => r.request)).size).toBeLessThan(batched.length / 10);

    const classes = await serverRows(ctx, classEntity);
    const series = await serverRows(ctx, seriesEntity);
    expect(classes.map((r) => r.class_name).sort()).toEqual(keys.map((_, i) => `Many C${i}`).sort());
    expect(series.map((r) => r.series_name).sort()).toEqual(keys.map((_, i) => `Many S${i}`).sort());
    for (let i = 0; i < chains; i++) {
      const c = classes.find((r) => r.class_name === `Many C${i}`)!;
      expect(series.find((r) => r.series_name === `Many S${i}`)).toMatchObject({ class_id: c.class_id });
      // Order: a series is first sent only after its class's add got its reply.
      const answered = sendsOf(proxy, keys[i].cls).find((r) => r.replied && r.fault === 'pass')!.n;
      expect(sendsOf(proxy, keys[i].series)[0].n).toBeGreaterThan(answered);
    }
    expectNoResendAfterReply(proxy.log);
    await expectDrained(ctx);
  });

  it('rules 1 and 3: a server restart in the middle of pipelined class → series → book chains', async () => {
    const { server, proxy, ctx } = await setup();
    const chains = 5;
    const keys: { cls: string; series: string; book: string }[] = [];
    const subject = await add(ctx, subjectEntity, { subject_name: 'Shared', subject_content: '<p>x</p>' });
    for (let i = 0; i < chains; i++) {
      const cls = await add(ctx, classEntity, { class_name: `C${i}` });
      const series = await add(ctx, seriesEntity, {
        class_id: cls.key,
        subject_id: subject.key,
        series_name: `S${i}`,
      });
      const book = await add(ctx, bookEntity, {
        class_id: cls.key,
        subject_id: subject.key,
        series_id: series.key,
        book_name: `B${i}`,
        book_code: `b${i}`,
      });
      keys.push({ cls: cls.entryId!, series: series.entryId!, book: book.entryId! });
    }
    // The request carrying the series reaches the server, which commits it; its reply is held
    // back, and the restart cuts its connection: the chains are half done (classes confirmed,
    // series applied but unconfirmed, books not sent). The test waits for the request itself,
    // not for a time: classes travel in one fast batch, so no delay reliably lands mid-flight.
    proxy.hangNext(/addseries/, { forward: true });
    const first = replay(ctx);
    while (!proxy.log.some((r) => /addseries/.test(r.target) && r.forwarded))
      await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 100));
    await server.restart();
    await first;
    await drain(ctx);
    // The restart cut requests (in flight or arriving while it was down), or this test proves nothing.
    expect(proxy.log.some((r) => r.method === 'POST' && !r.replied)).toBe(true);

    const classes = await serverRows(ctx, classEntity);
    const series = await serverRows(ctx, seriesEntity);
    const books = await serverRows(ctx, bookEntity);
    expect(classes).toHaveLength(chains);
    expect(series).toHaveLength(chains);
    expect(books).toHaveLength(chains);
    for (let i = 0; i < chains; i++) {
      const c = classes.find((r) => r.class_name === `C${i}`)!;
      const s = series.find((r) => r.series_name === `S${i}`)!;
      const b = books.find((r) => r.book_name === `B${i}`)!;
      expect(s.class_id).toBe(c.class_id);
      expect(b).toMatchObject({ series_id: s.series_id, class_id: c.class_id });
      // Order: a child is first sent only after its parent's add got its reply.
      const answered = (key: string) => sendsOf(proxy, key).find((r) => r.replied && r.fault === 'pass')!.n;
      expect(sendsOf(proxy, keys[i].series)[0].n).toBeGreaterThan(answered(keys[i].cls));
      expect(sendsOf(proxy, keys[i].book)[0].n).toBeGreaterThan(answered(keys[i].series));
    }
    expectNoResendAfterReply(proxy.log);
    await expectDrained(ctx);
  });
});
