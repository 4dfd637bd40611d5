/**
 * The audit trail seen from a device: a change made offline and delivered later,
 * its reply lost once, leaves one entry that says when it was made on the device (its outbox
 * entry's creation time, not the delivery) and which device it was, whether it travelled in a
 * batch or alone.
 */
import { describe, expect, it } from 'vitest';
import { classEntity, contentImageEntity } from '../../src/contract/entities';
import { deviceId } from '../../src/db/audit/device-id';
import { mutate } from '../../src/db/mutate';
import { pull } from '../../src/sync/pull/pull';
import { pngFile } from '../helpers/files';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

/** Two hours ago: the change waited on the device that long. */
const MADE = Date.now() - 2 * 3_600_000;

describe('a change made offline, its reply lost', () => {
  it('in a batch (an edit) and alone (an image upload): one entry each, with the device time', async () => {
    const { server, proxy, ctx } = await fixtures.proxied();
    const { key } = await mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: 'Draft' } });
    await drain(ctx);
    expect((await pull(ctx)).ok).toBe(true);
    const [row] = await ctx.db.rows(classEntity).toArray();
    const id = String(row.class_id);
    expect(id).not.toBe(key);

    // Offline: an edit and an image, made two hours before they are delivered.
    await mutate(ctx.db, { op: 'update', entity: classEntity, key: id, values: { class_name: 'Final' } });
    const image = await mutate(ctx.db, {
      op: 'add',
      entity: contentImageEntity,
      values: { image: pngFile('lake.png') },
    });
    await ctx.db.outbox.toCollection().modify({ createdAt: MADE });

    // The proxy sees through batches: the edit's batch loses its reply, and so does the image's request.
    proxy.dropRepliesTo(/updateclasses\.php/);
    proxy.dropRepliesTo(/addimage\.php/);
    await drain(ctx);
    expect(await ctx.db.outbox.count()).toBe(0);
    expect(proxy.log.filter((r) => r.fault === 'drop')).toHaveLength(2);

    const entries = await server.query<{ entity: string; record_id: string; op: string; made_at: Date }>(
      `SELECT entity, record_id, op, made_at, device, admin FROM audit_log WHERE op <> 'add' OR entity <> 'classes' ORDER BY entity`,
    );
    const name = (await ctx.db.rows(contentImageEntity).toArray())[0].image;
    expect(name).not.toBe(image.key);
    expect(entries).toEqual([
      expect.objectContaining({ entity: 'classes', record_id: id, op: 'update' }),
      expect.objectContaining({ entity: 'content_images', record_id: name, op: 'upload' }),
    ]);
    const device = await deviceId(ctx.db);
    for (const entry of entries)
      expect(entry).toMatchObject({ made_at: new Date(MADE), device, admin: 'admin' });
  });
});
