/**
 * Replay against the real server over HTTP (fresh embedded database per server). Each test
 * names the outbox rule of design-brief §3 it checks.
 */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import type { LocalDb } from '../../src/db/database';
import { mutate } from '../../src/db/mutate';
import { getRow, pendingKeys } from '../../src/db/queries';
import type { ApiClient } from '../../src/sync/api/api-client';
import { pull } from '../../src/sync/pull/pull';
import { replay } from '../../src/sync/replay';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const server = fixtures.server;
const proxyTo = fixtures.proxy;
const client = fixtures.client;

async function serverClasses(api: ApiClient): Promise<{ class_id: number; class_name: string }[]> {
  const outcome = await api.request(classEntity.api.list, { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body.classes as { class_id: number; class_name: string }[];
}

const names = (rows: { class_name: string }[]) => rows.map((r) => r.class_name).sort();
const add = (db: LocalDb, name: string) =>
  mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });
const edit = (db: LocalDb, key: string, name: string) =>
  mutate(db, { op: 'update', entity: classEntity, key, values: { class_name: name } });

describe('offline changes reach the server exactly once', () => {
  it('rules 1 and 3: adds, an edit of an offline add, an edit and a delete of server records', async () => {
    const s = await server();
    const ctx = await client(s.apiRoot);
    // Two records on the server first, pulled into the local store.
    const seed = await add(ctx.db, 'Grade 1');
    await add(ctx.db, 'Grade 2');
    await drain(ctx);
    expect((await pull(ctx)).ok).toBe(true);
    const grade1 = (await getRow(ctx.db, classEntity, seed.key))!;
    const grade2 = (await ctx.db.rows(classEntity).toArray()).find((r) => r.class_name === 'Grade 2')!;

    // Offline: nothing is replayed while these are made.
    const a = await add(ctx.db, 'Offline A');
    await edit(ctx.db, a.key, 'Offline A2');
    await add(ctx.db, 'Offline B');
    await edit(ctx.db, String(grade1.class_id), 'Grade 1 edited');
    await mutate(ctx.db, { op: 'delete', entity: classEntity, key: String(grade2.class_id) });
    expect(await ctx.db.outbox.count()).toBe(4); // the edit of 'Offline A' folded into its add

    await drain(ctx);
    expect(names(await serverClasses(ctx.api))).toEqual(['Grade 1 edited', 'Offline A2', 'Offline B']);
    expect(await ctx.db.outbox.count()).toBe(0);
    expect((await pendingKeys(ctx.db, classEntity)).size).toBe(0);
    // The temporary id still finds the record, now under the server's id.
    const stored = await getRow(ctx.db, classEntity, a.key);
    expect(stored?.class_id).toMatch(/^\d+$/);
    expect(stored?.class_name).toBe('Offline A2');
  });

  it('rule 3: an edit queued after its add was sent waits for the server id', async () => {
    const s = await server();
    const ctx = await client(s.apiRoot);
    const a = await add(ctx.db, 'Draft');
    // The add went out once (its reply was lost), so the edit cannot fold into it.
    await ctx.db.outbox.toCollection().modify({ attempts: 1 });
    await edit(ctx.db, a.key, 'Final');
    expect(await ctx.db.outbox.count()).toBe(2);
    await drain(ctx);
    expect(names(await serverClasses(ctx.api))).toEqual(['Final']);
  });

  it('rule 2: a connection dropped after the server committed an add gives no duplicate', async () => {
    const s = await server();
    const proxy = await proxyTo(s);
    const ctx = await client(`${proxy.url}/api`);
    await add(ctx.db, 'Only once');
    await add(ctx.db, 'Also once');
    proxy.dropRepliesTo(/addclasses\.php/, 2);
    const reports = await drain(ctx);
    expect(proxy.dropped).toBe(2);
    expect(reports.length).toBeGreaterThan(1); // the first round lost both replies
    expect(names(await serverClasses(ctx.api))).toEqual(['Also once', 'Only once']);
    const local = await ctx.db.rows(classEntity).toArray();
    expect(local.map((r) => r.class_id).every((id) => /^\d+$/.test(String(id)))).toBe(true);
  });

  it('rule 1: a server restart in the middle of a queue loses nothing', async () => {
    const s = await server();
    const ctx = await client(s.apiRoot);
    const total = 40;
    for (let i = 1; i <= total; i++) await add(ctx.db, `Queued ${String(i).padStart(2, '0')}`);
    const first = replay({ ...ctx, concurrency: 2 });
    // Restart while the queue is being sent.
    while ((await ctx.db.outbox.count()) > total - 5) await new Promise((r) => setTimeout(r, 5));
    await s.restart();
    await first;
    await drain(ctx);
    const rows = await serverClasses(ctx.api);
    expect(rows).toHaveLength(total);
    expect(new Set(names(rows)).size).toBe(total);
    expect(await ctx.db.outbox.count()).toBe(0);
  });

  it('rule 4: a refused change stays, marked failed with the server message; others go on', async () => {
    const s = await server();
    const ctx = await client(s.apiRoot);
    await add(ctx.db, 'Fine');
    // Whitespace passes the form's browser check but not the server's validation.
    await mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: '   ' } });
    await add(ctx.db, 'Fine too');
    const reports = await drain(ctx);
    expect(reports.reduce((sum, r) => sum + r.failed, 0)).toBe(1);
    const left = await ctx.db.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ status: 'failed', lastError: 'Class Name is required' });
    expect(names(await serverClasses(ctx.api))).toEqual(['Fine', 'Fine too']);
  });

  it('rule 4: a 401 pauses the queue and keeps every entry', async () => {
    const s = await server();
    const ctx = await client(s.apiRoot);
    await ctx.api.request('Admin_access/logout.php', { method: 'POST', json: {} });
    await add(ctx.db, 'Waits for sign-in');
    const report = await replay(ctx);
    expect(report.paused).toBe(true);
    expect(await ctx.db.outbox.count()).toBe(1);
    expect((await replay(ctx)).sent).toBe(0);
  });
});

describe('pull', () => {
  it('fills the store, follows deltas and never overwrites a row with an unsent change', async () => {
    const s = await server({ seedDemo: true });
    const ctx = await client(s.apiRoot);
    expect((await pull(ctx)).ok).toBe(true);
    expect(await ctx.db.rows(classEntity).count()).toBe(12);

    const other = await client(s.apiRoot);
    await pull(other);
    const [first, second] = await other.db.rows(classEntity).toArray();
    await edit(other.db, String(first.class_id), 'Changed elsewhere');
    await mutate(other.db, { op: 'delete', entity: classEntity, key: String(second.class_id) });
    await drain(other);

    // This device edits the same first record but has not sent it yet.
    await edit(ctx.db, String(first.class_id), 'Mine, unsent');
    expect((await pull(ctx)).ok).toBe(true);
    expect((await getRow(ctx.db, classEntity, String(first.class_id)))?.class_name).toBe('Mine, unsent');
    expect(await getRow(ctx.db, classEntity, String(second.class_id))).toBeUndefined();
    expect(await ctx.db.rows(classEntity).count()).toBe(11);
  });

  it('works against the legacy server (no cursor): full list, server ids learned by refetching', async () => {
    const s = await server({ legacy: true, seedDemo: true });
    const ctx = await client(s.apiRoot);
    expect((await pull(ctx)).ok).toBe(true);
    expect(await ctx.db.rows(classEntity).count()).toBe(12);
    const a = await add(ctx.db, 'Legacy add');
    await ctx.db.outbox.toCollection().modify({ attempts: 1 });
    await edit(ctx.db, a.key, 'Legacy add, edited');
    await drain(ctx);
    const rows = await serverClasses(ctx.api);
    expect(rows.filter((r) => r.class_name.startsWith('Legacy'))).toHaveLength(1);
    expect((await getRow(ctx.db, classEntity, a.key))?.class_name).toBe('Legacy add, edited');
    await pull(ctx);
    expect(await ctx.db.rows(classEntity).count()).toBe(13);
  });
});
