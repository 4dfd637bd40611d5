/**
 * Batches stay under the server's limit on a JSON body (2 MB, server/http/body.ts): the
 * transport closes a batch at BATCH_MAX_BYTES of JSON as well as at BATCH_MAX_ITEMS items, and
 * an item larger than that travels alone (src/sync/transport.ts).
 */
import { describe, expect, it } from 'vitest';
import { BATCH_MAX_BYTES } from '../../src/contract/batch';
import { classEntity, subjectEntity } from '../../src/contract/entities';
import { wireRequest } from '../../src/contract/wire-request';
import { mutate } from '../../src/db/mutate';
import { createTransport } from '../../src/sync/transport';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

describe('batches by size', () => {
  it('subjects with long content go in several batches of at most BATCH_MAX_BYTES, all delivered once', async () => {
    const { proxy, ctx } = await fixtures.proxied();
    // 60,000 characters of content each: 9 of them are ~540 KB of JSON.
    const content = `<p>${'Long content. '.repeat(4_280)}</p>`;
    for (let i = 0; i < 9; i++)
      await mutate(ctx.db, {
        op: 'add',
        entity: subjectEntity,
        values: { subject_name: `Long ${i}`, subject_content: content },
      });
    await drain(ctx);
    expect(await ctx.db.outbox.toArray()).toEqual([]);
    const adds = proxy.log.filter((r) => r.target.endsWith(subjectEntity.api.add));
    expect(adds).toHaveLength(9);
    expect(adds.every((r) => r.batched)).toBe(true);
    const perRequest = new Map<number, number>();
    for (const r of adds) perRequest.set(r.request, (perRequest.get(r.request) ?? 0) + 1);
    // At most floor(512 KB / ~60 KB) = 8 per batch, so at least two batches.
    const itemBytes = content.length + 200;
    expect(perRequest.size).toBeGreaterThanOrEqual(Math.ceil((9 * itemBytes) / BATCH_MAX_BYTES));
    for (const count of perRequest.values())
      expect(count * content.length).toBeLessThanOrEqual(BATCH_MAX_BYTES);
  });

  it('an item larger than the batch size travels alone', async () => {
    const { proxy, ctx } = await fixtures.proxied();
    const transport = createTransport(ctx.api, { maxBytes: 300 });
    const add = (name: string) => ({
      request: wireRequest(classEntity, { op: 'add', values: { class_name: name } }),
      key: `bytes-${name.length}-${name.slice(-3).replace(/ /g, '_')}`,
    });
    const outcomes = await transport.sendAll([add('Small one'), add('Small two'), add('L'.repeat(250))]);
    expect(outcomes.map((o) => (o.kind === 'reply' ? o.status : o.kind))).toEqual([200, 200, 200]);
    const sent = proxy.log.filter((r) => r.target.endsWith(classEntity.api.add));
    expect(sent.map((r) => [r.key, r.batched])).toEqual(
      expect.arrayContaining([
        [add('Small one').key, true],
        [add('Small two').key, true],
        [add('L'.repeat(250)).key, false],
      ]),
    );
  });
});
