/**
 * Resource types offline, against the real server over HTTP in both modes: requests built
 * from the description reach the one legacy path with the right `type`, the id as `type_id`
 * and each operation's own wire names; an add's id is learned (from the reply, or by
 * refetching the list on the legacy server); an edit meets the server's record first (rule 5).
 */
import { describe, expect, it } from 'vitest';
import { resourceTypeEntity } from '../../src/contract/entities';
import { wireRequest } from '../../src/contract/wire-request';
import { mutate } from '../../src/db/mutate';
import { requestOptions } from '../../src/sync/api/encode-request';
import { pull } from '../../src/sync/pull/pull';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

describe.each([
  ['our server', false],
  ['the legacy server', true],
])('resource types against %s', (_name, legacy) => {
  it('an add, an edit of it and an edit of a server record, offline, each sent once', async () => {
    const { proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
    await pull(ctx);
    const video = (await ctx.db.rows(resourceTypeEntity).toArray()).find((r) => r.title === 'Video Link')!;

    const { key } = await mutate(ctx.db, {
      op: 'add',
      entity: resourceTypeEntity,
      values: { title: 'Podcast', entry_type: '6' },
    });
    await mutate(ctx.db, { op: 'update', entity: resourceTypeEntity, key, values: { title: 'Podcasts' } });
    await mutate(ctx.db, {
      op: 'update',
      entity: resourceTypeEntity,
      key: String(video.id),
      values: { entry_type: '3' },
    });
    await drain(ctx);

    // The writes that reached the server as such: an item of a batch the server refused whole
    // (the legacy server has no batch endpoint: 404) never ran, and went again on its own.
    const writes = proxy.log.filter(
      (r) => r.method === 'POST' && r.key !== null && (!r.batched || r.status === 200),
    );
    expect(writes.map((r) => r.target.replace(/^.*index\.php/, ''))).toEqual([
      '?type=insert',
      '?type=update',
    ]);
    expect(new Set(writes.map((r) => r.key)).size).toBe(2);

    const request = wireRequest(resourceTypeEntity, { op: 'list' });
    const listed = await ctx.api.request(request.path, requestOptions(request));
    if (listed.kind !== 'reply') throw new Error('no reply');
    const rows = listed.body.resource_types as { id: number; title: string; entry_type: number }[];
    expect(rows.filter((r) => r.title === 'Podcasts')).toEqual([expect.objectContaining({ entry_type: 6 })]);
    expect(rows.find((r) => String(r.id) === video.id)).toMatchObject({ title: 'Video Link', entry_type: 3 });
    // The add's temporary id was replaced by the server's.
    const local = await ctx.db.rows(resourceTypeEntity).toArray();
    expect(local.find((r) => r.title === 'Podcasts')?.id).toBe(
      String(rows.find((r) => r.title === 'Podcasts')!.id),
    );
    expect(await ctx.db.outbox.count()).toBe(0);
  });
});
