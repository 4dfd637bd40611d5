/**
 * Rules 2 and 5 against a strict server: it binds an Idempotency-Key to the whole request, so
 * an edit whose reply was lost must be sent again EXACTLY as it was first sent, even when the
 * record changed on the server meanwhile. A fresh merge with the server's new record would
 * build another body, which the server would refuse (422) and the edit would fail although
 * it was applied; and were it applied again it would undo the other change. The entry keeps
 * what it sent (`sent`, src/sync/merge/merge-with-server.ts), and its resend is answered from the
 * stored reply.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity, classEntity } from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { mutate } from '../../src/db/mutate';
import { pull } from '../../src/sync/pull/pull';
import { replay, type SyncContext } from '../../src/sync/replay';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function serverRecord(ctx: SyncContext, entity: EntityDescription, id: string) {
  const idParam = entity.key;
  const outcome = await ctx.api.request(entity.api.get as string, {
    method: 'GET',
    query: { [idParam]: id },
  });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body[entity.api.getField as string] as Record<string, unknown>;
}

/** Two devices on one server with the demo data: `here` behind the fault proxy, `there` direct. */
async function setup() {
  const { server, proxy, ctx: here } = await fixtures.proxied({ seedDemo: true });
  const there = await fixtures.client(server.apiRoot);
  expect((await pull(here)).ok).toBe(true);
  expect((await pull(there)).ok).toBe(true);
  return { server, proxy, here, there };
}

describe('an edit whose reply was lost is resent exactly as first sent', () => {
  it.each([
    // Multipart: one request per entry. Another field changes on the server meanwhile.
    ['a book (multipart, alone)', bookEntity, { book_name: 'Renamed here' }, { book_code: 'CODE-THERE' }],
    // JSON: travels in a batch. The same field changes on the server meanwhile.
    [
      'a class (JSON, in a batch)',
      classEntity,
      { class_name: 'Renamed here' },
      { class_name: 'Renamed there' },
    ],
  ])(
    '%s: no 422, no conflict, the stored reply answers, the other change stays',
    async (_name, entity, mine, theirs) => {
      const { server, proxy, here, there } = await setup();
      const id = String((await here.db.rows(entity).toCollection().first())![entity.key]);
      const { entryId } = await mutate(here.db, { op: 'update', entity, key: id, values: mine });

      // The server applies the edit; its reply never reaches this device.
      proxy.dropRepliesTo(new RegExp(String(entity.api.update).replace(/\./g, '\\.')), 1);
      expect((await replay(here)).sent).toBe(0);
      const [waiting] = await here.db.outbox.toArray();
      expect(waiting).toMatchObject({ id: entryId, attempts: 1, status: 'pending' });
      expect(waiting.sent).toBeDefined();
      expect(await serverRecord(here, entity, id)).toMatchObject(mine);

      // Meanwhile another administrator, who sees the record as it is now, changes it again.
      expect((await pull(there)).ok).toBe(true);
      await mutate(there.db, { op: 'update', entity, key: id, values: theirs });
      await drain(there);
      expect(await there.db.outbox.toArray()).toEqual([]);
      const changedThere = await serverRecord(there, entity, id);
      expect(changedThere).toMatchObject(theirs);

      // The resend: the same key with the same request, answered from the stored reply.
      await drain(here);
      expect(await here.db.outbox.toArray()).toEqual([]);
      const sends = proxy.log.filter((r) => r.key === entryId);
      expect(sends.map((r) => [r.fault, r.replied])).toEqual([
        ['drop', false],
        ['pass', true],
      ]);
      // Not applied again: the other administrator's change is what the server has.
      expect(await serverRecord(here, entity, id)).toEqual(changedThere);
      const stored = await server.query<{ status: number; reply: { success: boolean } }>(
        'SELECT status, reply FROM idempotency_keys WHERE key = $1',
        [entryId],
      );
      expect(stored).toEqual([{ status: 200, reply: expect.objectContaining({ success: true }) }]);
    },
  );
});
