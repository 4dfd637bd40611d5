/**
 * What the tablet screens ask of the local store, on fake-indexeddb: every problem of
 * a form at once, the page of a list that holds a record (also after the server renamed its
 * key), options that read the same told apart by their parents, and Discard with an Undo that
 * puts the entry back exactly.
 */
import { describe, expect, it } from 'vitest';
import { chapterEntity, classEntity, seriesEntity, subjectEntity } from '../../../src/contract/entities';
import { formProblems, validateForm } from '../../../src/contract/validation';
import type { LocalDb } from '../../../src/db/database';
import { readCursor, writeCursor } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { discardEntry, readDiscardNotes, undoDiscard } from '../../../src/db/outbox/discard';
import { makeWaitingDue } from '../../../src/db/outbox/queue-actions';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { pageHolding, placeInPlace } from '../../../src/db/queries';
import { refOptions } from '../../../src/db/reads/parent-options';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('screens', (opened) => {
  db = opened;
});

describe('form problems', () => {
  it('lists every problem of the chapter form, and validateForm still gives the spec’s one message', () => {
    const values = { chapter_title: '', class_id: '', subject_id: '1' };
    expect(formProblems(chapterEntity, 'add', values).map((p) => p.field)).toEqual([
      'class_id',
      'series_id',
      'book_id',
      'chapter_title',
    ]);
    expect(formProblems(chapterEntity, 'add', values)[0]).toEqual({
      field: 'class_id',
      message: 'Class is required',
      missing: true,
    });
    expect(validateForm(chapterEntity, 'add', values)).toEqual({
      ok: false,
      field: 'class_id',
      message: 'Please fill in all required fields',
    });
  });

  it('reports a wrong value with its own message, not the required one', () => {
    const long = 'x'.repeat(300);
    expect(formProblems(classEntity, 'add', { class_name: long })).toEqual([
      { field: 'class_name', message: 'Class Name is too long: at most 255 characters', missing: false },
    ]);
    expect(validateForm(classEntity, 'add', { class_name: 'ok' })).toEqual({ ok: true });
  });
});

describe('the page that holds a record', () => {
  /** Classes 1 to 12 as the server named them: a new record is the thirteenth, on page 2. */
  const twelveServerClasses = () =>
    db
      .rows(classEntity)
      .bulkPut(
        Array.from({ length: 12 }, (_, i) => ({ class_id: String(i + 1), class_name: `Class ${i + 1}` })),
      );

  it('is found under the list’s sort and search, and follows the key the server gives', async () => {
    await twelveServerClasses();
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Zeta' } });
    // Default order (class_id asc): the new record's temporary id sorts after the server's ids.
    expect(await pageHolding(db, classEntity, {}, key, placeInPlace(db))).toEqual({ page: 2, key });
    expect(
      await pageHolding(
        db,
        classEntity,
        { sort: { field: 'class_name', dir: 'desc' } },
        key,
        placeInPlace(db),
      ),
    ).toEqual({
      page: 1,
      key,
    });
    expect(await pageHolding(db, classEntity, { search: 'zet' }, key, placeInPlace(db))).toEqual({
      page: 1,
      key,
    });
    expect(await pageHolding(db, classEntity, { search: 'Class' }, key, placeInPlace(db))).toBeNull();

    const [entry] = await db.outbox.toArray();
    await applyServerIds(db, [{ entity: 'class', tempId: key, serverId: '13', seq: entry.seq }]);
    expect(await pageHolding(db, classEntity, {}, key, placeInPlace(db))).toEqual({ page: 2, key: '13' });
  });

  it('finds a record the server names between reading its key and placing it', async () => {
    await twelveServerClasses();
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Zeta' } });
    const [entry] = await db.outbox.toArray();
    const place = placeInPlace(db);
    let named = false;
    const placeWhileNamed: typeof place = async (entity, query, asked) => {
      // The first placing finds the record already named (the rekey committed in between).
      if (!named) {
        named = true;
        await applyServerIds(db, [{ entity: 'class', tempId: key, serverId: '13', seq: entry.seq }]);
      }
      return place(entity, query, asked);
    };
    expect(await pageHolding(db, classEntity, {}, key, placeWhileNamed)).toEqual({ page: 2, key: '13' });
  });
});

describe('options that would read the same', () => {
  it('are told apart by their parents’ names, others keep their title', async () => {
    await db.rows(classEntity).bulkPut([
      { class_id: '1', class_name: 'Class 1' },
      { class_id: '2', class_name: 'Class 2' },
    ]);
    await db.rows(subjectEntity).bulkPut([{ subject_id: '1', subject_name: 'Mathematics' }]);
    await db.rows(seriesEntity).bulkPut([
      { series_id: '1', series_name: 'Number Fun', class_id: '1', subject_id: '1' },
      { series_id: '2', series_name: 'Number Fun', class_id: '2', subject_id: '1' },
      { series_id: '3', series_name: 'Curious Minds', class_id: '2', subject_id: '1' },
    ]);
    expect(await refOptions(db, chapterEntity, 'series_id', {}, false)).toEqual([
      { value: '3', label: 'Curious Minds' },
      { value: '1', label: 'Number Fun — Class 1 · Mathematics' },
      { value: '2', label: 'Number Fun — Class 2 · Mathematics' },
    ]);
  });
});

describe('Discard and Undo', () => {
  it("makes the next pull read the record's table from the start (pulls moved past it while it was held)", async () => {
    await db.rows(classEntity).put({ class_id: '1', class_name: 'Before', sort_order: 0 });
    await writeCursor(db, classEntity.table, '41');
    await writeCursor(db, 'subjects', '41');
    await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'After' } });
    const [entry] = await db.outbox.toArray();
    await discardEntry(db, entry);
    expect(await readCursor(db, classEntity.table)).toBeNull();
    expect(await readCursor(db, 'subjects')).toBe('41');
  });

  it('puts the entry back exactly (seq, key, payload with its file, attempts) and the record with it', async () => {
    await db.rows(classEntity).put({ class_id: '1', class_name: 'Before', sort_order: 0 });
    await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'After' } });
    await db.outbox.toCollection().modify({ attempts: 2, lastError: 'Failed to fetch', status: 'failed' });
    const [entry] = await db.outbox.toArray();
    // A Blob in the payload, as a chapter image would be.
    const file = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    await db.outbox.update(entry.seq, { payload: { ...entry.payload, picture: file } });
    const stored = (await db.outbox.get(entry.seq))!;

    const discarded = await discardEntry(db, stored, 'Edit Class “After”');
    expect(discarded).not.toBeNull();
    expect(await db.outbox.count()).toBe(0);
    expect((await db.rows(classEntity).get('1'))?.class_name).toBe('Before');
    expect(await readDiscardNotes(db)).toEqual([
      { id: stored.id, label: 'Edit Class “After”', at: expect.any(Number) },
    ]);

    expect(await undoDiscard(db, discarded!)).toBe(true);
    const back = (await db.outbox.get(entry.seq))!;
    expect({ ...back, payload: { ...back.payload, picture: null } }).toEqual({
      ...stored,
      payload: { ...stored.payload, picture: null },
    });
    expect(back.payload.picture).toBeInstanceOf(Blob);
    expect((back.payload.picture as Blob).size).toBe(3);
    expect((await db.rows(classEntity).get('1'))?.class_name).toBe('After');
    expect(await readDiscardNotes(db)).toEqual([]);
  });

  it('does nothing to an entry being sent, and Undo refuses a place that was taken', async () => {
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'New' } });
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry.seq, { status: 'sending' });
    expect(await discardEntry(db, entry)).toBeNull();
    await db.outbox.update(entry.seq, { status: 'pending' });
    const discarded = (await discardEntry(db, entry))!;
    expect(await db.rows(classEntity).get(key)).toBeUndefined();
    await db.outbox.put({ ...entry, id: 'another' });
    expect(await undoDiscard(db, discarded)).toBe(false);
  });
});

describe('Sync now', () => {
  it('makes every waiting change due at once, keeping its key', async () => {
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'A' } });
    await db.outbox.toCollection().modify({ nextAttemptAt: Date.now() + 60_000, attempts: 1 });
    const [before] = await db.outbox.toArray();
    await makeWaitingDue(db);
    const [after] = await db.outbox.toArray();
    expect(after).toEqual({ ...before, nextAttemptAt: 0 });
  });
});
