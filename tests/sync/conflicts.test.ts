/**
 * Rule 5 against the real server, in both modes: two devices edit the same book; one edits
 * offline while the other's edit reaches the server first.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity } from '../../src/contract/entities';
import { mutate } from '../../src/db/mutate';
import { firstChildEntity } from '../../src/db/mutations/children';
import { discardEntry } from '../../src/db/outbox/discard';

import { resolveConflict } from '../../src/db/outbox/queue-actions';
import { pull } from '../../src/sync/pull/pull';
import type { SyncContext } from '../../src/sync/replay';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function twoDevices(legacy: boolean) {
  const server = await fixtures.server({ legacy, seedDemo: true });
  const devices: (SyncContext & { db: import('../../src/db/database').LocalDb })[] = [];
  for (let i = 0; i < 2; i++) {
    const ctx = await fixtures.client(server.apiRoot);
    expect((await pull(ctx)).ok).toBe(true);
    devices.push(ctx);
  }
  // Books that nothing else refers to, so they can also be deleted.
  const books = [];
  for (const book of await devices[0].db.rows(bookEntity).toArray()) {
    if (!(await firstChildEntity(devices[0].db, bookEntity, String(book.book_id)))) books.push(book);
  }
  expect(books.length).toBeGreaterThanOrEqual(2);
  return {
    here: devices[0],
    there: devices[1],
    id: String(books[0].book_id),
    other: String(books[1].book_id),
  };
}

async function serverBook(ctx: SyncContext, id: string) {
  const outcome = await ctx.api.request(bookEntity.api.get, { method: 'GET', query: { book_id: id } });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body.book as Record<string, unknown>;
}

const edit = (ctx: SyncContext, id: string, values: Record<string, string>) =>
  mutate(ctx.db, { op: 'update', entity: bookEntity, key: id, values });

describe.each([
  ['our server', false],
  ['the legacy server', true],
])('rule 5 against %s', (_name, legacy) => {
  it('changes to different fields merge', async () => {
    const { here, there, id } = await twoDevices(legacy);
    await edit(here, id, { book_name: 'Name from here' }); // offline for now
    await edit(there, id, { book_code: 'CODE-THERE' });
    await drain(there);
    await drain(here);
    expect(await serverBook(here, id)).toMatchObject({
      book_name: 'Name from here',
      book_code: 'CODE-THERE',
    });
    await pull(here);
    expect(await here.db.rows(bookEntity).get(id)).toMatchObject({
      book_name: 'Name from here',
      book_code: 'CODE-THERE',
    });
  });

  it('changes to the same field wait for a choice, then send it', async () => {
    const { here, there, id } = await twoDevices(legacy);
    await edit(here, id, { book_name: 'Mine', book_description: 'only here' });
    await edit(there, id, { book_name: 'Theirs' });
    await drain(there);
    const reports = await drain(here);
    expect(reports.at(-1)?.failed).toBe(1);
    const [held] = await here.db.outbox.toArray();
    expect(held.status).toBe('conflict');
    expect(held.conflict?.fields).toEqual([{ field: 'book_name', mine: 'Mine', theirs: 'Theirs' }]);
    // Nothing was sent while the administrator had not chosen.
    expect(await serverBook(here, id)).toMatchObject({ book_name: 'Theirs' });

    await resolveConflict(here.db, held.seq!, { book_name: 'mine' });
    await drain(here);
    expect(await here.db.outbox.count()).toBe(0);
    expect(await serverBook(here, id)).toMatchObject({ book_name: 'Mine', book_description: 'only here' });
  });

  it('an edit of a record deleted on the server fails with a reason; a delete counts as done', async () => {
    const { here, there, id, other } = await twoDevices(legacy);
    await edit(here, id, { book_name: 'Too late' });
    await mutate(there.db, { op: 'delete', entity: bookEntity, key: id });
    await drain(there);
    await drain(here);
    const [failed] = await here.db.outbox.toArray();
    expect(failed).toMatchObject({ status: 'failed', lastError: 'This book was deleted on the server.' });

    // Deleting it here too: the server no longer has it, which is what was asked.
    await mutate(here.db, { op: 'delete', entity: bookEntity, key: other });
    await mutate(there.db, { op: 'delete', entity: bookEntity, key: other });
    await drain(there);
    await drain(here);
    expect((await here.db.outbox.toArray()).map((e) => e.op)).toEqual(['update']);
  });

  it('discarding an edit of a record deleted on the server removes the record here too', async () => {
    const { here, there, id } = await twoDevices(legacy);
    await edit(here, id, { book_name: 'Never sent' });
    await mutate(there.db, { op: 'delete', entity: bookEntity, key: id });
    await drain(there);
    // The pull passes the deletion while the waiting edit holds the record here.
    expect((await pull(here)).ok).toBe(true);
    expect(await here.db.rows(bookEntity).get(id)).toBeDefined();
    await drain(here);
    const [failed] = await here.db.outbox.toArray();
    expect(failed).toMatchObject({ status: 'failed', goneOnServer: true });

    expect(await discardEntry(here.db, failed)).not.toBeNull();
    expect((await pull(here)).ok).toBe(true);
    // Not put back as it was: the server has no such book, and no later pull would say so.
    expect(await here.db.rows(bookEntity).get(id)).toBeUndefined();
  });
});
