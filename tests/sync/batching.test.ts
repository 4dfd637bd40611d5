/**
 * How replay's requests travel (src/sync/batching-api.ts): independent entries share batch
 * requests against our server, files still go alone, a lost batch reply is answered from the
 * stored replies, and a server without batches (legacy mode) gets the same requests one by one
 * after a single refused batch, with nothing applied twice.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity, classEntity } from '../../src/contract/entities';
import type { LocalDb } from '../../src/db/database';
import { mutate } from '../../src/db/mutate';
import type { ApiClient } from '../../src/sync/api/api-client';
import type { FaultProxy } from '../helpers/fault-proxy';
import { pngFile } from '../helpers/files';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function setup(legacy: boolean): Promise<{ db: LocalDb; api: ApiClient; proxy: FaultProxy }> {
  const { proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
  return { ...ctx, proxy };
}

async function classNames(api: ApiClient): Promise<string[]> {
  const outcome = await api.request(classEntity.api.list, { method: 'GET', query: { limit: 1000 } });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return (outcome.body.classes as { class_name: string }[]).map((c) => c.class_name).sort();
}

const addClasses = async (db: LocalDb, count: number) => {
  for (let i = 0; i < count; i++)
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: `Batched ${i}` } });
};
const expected = (count: number) => Array.from({ length: count }, (_, i) => `Batched ${i}`);
const writes = (proxy: FaultProxy) => proxy.log.filter((r) => r.method === 'POST' && r.key !== null);

describe('batched delivery', () => {
  it('sends independent entries together, each once, and files alone', async () => {
    const { db, api, proxy } = await setup(false);
    await addClasses(db, 150);
    await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: {
        class_id: '1',
        subject_id: '1',
        series_id: '1',
        book_name: 'Alone',
        book_code: 'A-1',
        book_cover: pngFile('c.png'),
      },
    });
    await drain({ db, api });

    const sent = writes(proxy);
    expect(sent).toHaveLength(151);
    expect(new Set(sent.map((r) => r.key)).size).toBe(151);
    const adds = sent.filter((r) => r.target.endsWith(classEntity.api.add));
    expect(adds.every((r) => r.batched)).toBe(true);
    // 150 entries in a few requests (at most 100 per batch), not 150.
    expect(new Set(adds.map((r) => r.request)).size).toBeLessThanOrEqual(3);
    expect(sent.find((r) => r.target.endsWith(bookEntity.api.add))?.batched).toBe(false);
    expect((await classNames(api)).filter((n) => n.startsWith('Batched'))).toEqual(expected(150).sort());
    expect(await db.outbox.count()).toBe(0);
  });

  it('answers a batch whose reply was lost from the stored replies', async () => {
    const { db, api, proxy } = await setup(false);
    await addClasses(db, 30);
    proxy.dropRepliesTo(/sync\/batch/, 1);
    await drain({ db, api });
    expect(proxy.dropped).toBe(1);
    const batches = new Set(writes(proxy).map((r) => r.request));
    expect(batches.size).toBe(2);
    expect((await classNames(api)).filter((n) => n.startsWith('Batched'))).toEqual(expected(30).sort());
  });

  it('falls back to one request per entry against a server without batches', async () => {
    const { db, api, proxy } = await setup(true);
    await addClasses(db, 12);
    await drain({ db, api });
    const sent = writes(proxy);
    // One refused batch (no reply of their own for its items), then each entry alone, once.
    const batched = sent.filter((r) => r.batched);
    expect(new Set(batched.map((r) => r.request)).size).toBe(1);
    expect(batched.every((r) => !r.replied)).toBe(true);
    const alone = sent.filter((r) => !r.batched);
    expect(alone).toHaveLength(12);
    expect(new Set(alone.map((r) => r.key)).size).toBe(12);
    expect((await classNames(api)).filter((n) => n.startsWith('Batched'))).toEqual(expected(12).sort());

    // The server's answer is remembered: later changes go alone from the start.
    await addClasses(db, 1);
    const before = proxy.log.length;
    await drain({ db, api });
    expect(proxy.log.slice(before).filter((r) => r.batched)).toEqual([]);
  });
});
