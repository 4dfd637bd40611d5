import { describe, expect, it } from 'vitest';
import { bookEntity, classEntity, seriesEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { isQuotaError } from '../../../src/db/errors';
import { mutate } from '../../../src/db/mutate';
import { resolveConflict, retryEntry } from '../../../src/db/outbox/queue-actions';
import { mergeEdit } from '../../../src/sync/merge/merge-edit';
import { DAY_MS, queueView, staleWarning } from '../../../src/sync/queue-view';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('queue', (opened) => {
  db = opened;
});

const base = { book_id: '1', book_name: 'Reader', book_code: 'R1', book_description: 'old', series_id: '2' };

describe('rule 5: merging an offline edit with the server’s record', () => {
  it('different fields merge: this device’s changes on top of the server’s', () => {
    const server = { ...base, book_code: 'R1-server' };
    const { values, conflicts } = mergeEdit(
      bookEntity,
      base,
      { ...base, book_name: 'Reader (mine)' },
      server,
    );
    expect(conflicts).toEqual([]);
    expect(values).toMatchObject({
      book_name: 'Reader (mine)',
      book_code: 'R1-server',
      book_description: 'old',
    });
  });

  it('the same field changed to different values is a conflict', () => {
    const server = { ...base, book_name: 'Reader (server)' };
    const { conflicts } = mergeEdit(bookEntity, base, { ...base, book_name: 'Reader (mine)' }, server);
    expect(conflicts).toEqual([{ field: 'book_name', mine: 'Reader (mine)', theirs: 'Reader (server)' }]);
  });

  it('the same change made on both sides is no conflict', () => {
    const server = { ...base, book_name: 'Same' };
    expect(mergeEdit(bookEntity, base, { book_name: 'Same' }, server).conflicts).toEqual([]);
  });
});

describe('settling a conflict', () => {
  it('takes the chosen values and the server’s record as the new base', async () => {
    await db.rows(bookEntity).put({ ...base, status: 'Disabled' });
    await mutate(db, {
      op: 'update',
      entity: bookEntity,
      key: '1',
      values: { book_name: 'Mine', book_code: 'C-mine' },
    });
    const [entry] = await db.outbox.toArray();
    const server = { ...base, book_name: 'Theirs', book_code: 'C-theirs', book_description: 'new' };
    await db.outbox.update(entry.seq!, {
      status: 'conflict',
      conflict: {
        fields: [
          { field: 'book_name', mine: 'Mine', theirs: 'Theirs' },
          { field: 'book_code', mine: 'C-mine', theirs: 'C-theirs' },
        ],
        server,
      },
    });
    await resolveConflict(db, entry.seq!, { book_name: 'theirs', book_code: 'mine' });
    const settled = (await db.outbox.get(entry.seq!))!;
    expect(settled).toMatchObject({
      status: 'pending',
      payload: { book_name: 'Theirs', book_code: 'C-mine' },
    });
    expect(settled.conflict).toBeUndefined();
    // Merging again against the same server record now sends the choices without conflict.
    const again = mergeEdit(bookEntity, settled.base!, settled.payload, server);
    expect(again.conflicts).toEqual([]);
    expect(again.values).toMatchObject({ book_name: 'Theirs', book_code: 'C-mine', book_description: 'new' });
    expect(await db.rows(bookEntity).get('1')).toMatchObject({
      book_name: 'Theirs',
      book_description: 'new',
    });
  });
});

describe('rule 4: refused changes', () => {
  it('Retry gives a refused entry a new Idempotency-Key, and a waiting one keeps its key', async () => {
    const { entryId } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'X' } });
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry.seq!, {
      status: 'pending',
      attempts: 2,
      nextAttemptAt: Date.now() + 60_000,
    });
    await retryEntry(db, entry.seq!);
    expect(await db.outbox.get(entry.seq!)).toMatchObject({ id: entryId, nextAttemptAt: 0 });
    await db.outbox.update(entry.seq!, { status: 'failed', lastError: 'Class Name is required' });
    await retryEntry(db, entry.seq!);
    const retried = (await db.outbox.get(entry.seq!))!;
    expect(retried.id).not.toBe(entryId);
    expect(retried).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
  });

  it('Edit of a refused add corrects that add under a new key', async () => {
    const { key, entryId } = await mutate(db, {
      op: 'add',
      entity: classEntity,
      values: { class_name: ' ' },
    });
    await db.outbox
      .toCollection()
      .modify({ status: 'failed', attempts: 1, lastError: 'Class Name is required' });
    const edit = await mutate(db, {
      op: 'update',
      entity: classEntity,
      key,
      values: { class_name: 'Fixed' },
    });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      op: 'add',
      status: 'pending',
      attempts: 0,
      payload: { class_name: 'Fixed' },
    });
    expect(entries[0].id).not.toBe(entryId);
    expect(edit.entryId).toBe(entries[0].id);
  });

  it('deleting a record whose add was refused sends nothing', async () => {
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Y' } });
    await db.outbox.toCollection().modify({ status: 'failed', attempts: 1 });
    expect((await mutate(db, { op: 'delete', entity: classEntity, key })).cancelled).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('the outbox screen’s view', () => {
  it('says what a change waits for and gives the spec’s failure text', async () => {
    const cls = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Grade 9' } });
    await db.outbox.toCollection().modify({ status: 'failed', attempts: 1, lastError: 'No' });
    await mutate(db, {
      op: 'add',
      entity: seriesEntity,
      values: { class_id: cls.key, subject_id: '1', series_name: 'S' },
    });
    const items = queueView(
      await db.outbox.toArray(),
      (id) => (id.startsWith('tmp-') ? null : id),
      Date.now(),
    );
    expect(items.map((i) => [i.record, i.action, i.state, i.failure, i.waitsFor])).toEqual([
      ['Class “Grade 9”', 'Add', 'Failed', 'Failed to add class', null],
      ['Series “S”', 'Add', 'Waiting', null, 'Waits for: Add Class “Grade 9” (failed)'],
    ]);
  });

  it('warns when the oldest waiting change is more than a day old', async () => {
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Old' } });
    const entries = await db.outbox.toArray();
    const now = entries[0].createdAt;
    expect(staleWarning(entries, now + DAY_MS - 1)).toBeNull();
    expect(staleWarning(entries, now + DAY_MS + 1)).toMatch(/^The oldest change has been waiting for a day/);
    expect(staleWarning(entries, now + 3 * DAY_MS + 1)).toMatch(/waiting for 3 days/);
  });
});

describe('a full storage quota never corrupts the queue', () => {
  it('a write refused for quota leaves neither row nor entry, and earlier entries intact', async () => {
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Kept' } });
    // Make the next outbox write fail as IndexedDB does when the quota is exhausted.
    db.outbox.hook('creating', () => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    const error = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Lost?' } }).catch(
      (e: unknown) => e,
    );
    expect(isQuotaError(error)).toBe(true);
    expect((await db.rows(classEntity).toArray()).map((r) => r.class_name)).toEqual(['Kept']);
    expect(await db.outbox.count()).toBe(1);
  });
});
