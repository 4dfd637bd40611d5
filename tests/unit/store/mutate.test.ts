import { describe, expect, it } from 'vitest';
import { bookEntity, classEntity, seriesEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { isTempId } from '../../../src/db/ids';
import { mutate } from '../../../src/db/mutate';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { getRow, listRows } from '../../../src/db/queries';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('unit', (opened) => {
  db = opened;
});

const add = (name: string) => mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });

describe('mutate writes the record and its outbox entry together (rule 1)', () => {
  it('an add stores a row under a temporary id and one pending add entry', async () => {
    const { key } = await add('Class A');
    expect(isTempId(key)).toBe(true);
    expect(await db.rows(classEntity).get(key)).toMatchObject({ class_name: 'Class A', sort_order: 0 });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'add', key, status: 'pending', attempts: 0 });
    expect(entries[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a failing write leaves neither row nor entry', async () => {
    await expect(
      mutate(db, { op: 'update', entity: classEntity, key: 'missing', values: { class_name: 'X' } }),
    ).rejects.toThrow(/not in the local store/);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('folding unsent entries (rule 6)', () => {
  it('an edit of an unsent add merges into the add', async () => {
    const { key } = await add('Class A');
    await mutate(db, { op: 'update', entity: classEntity, key, values: { class_name: 'Class B' } });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'add', payload: { class_name: 'Class B' } });
    expect((await getRow(db, classEntity, key))?.class_name).toBe('Class B');
  });

  it('deleting an unsent add sends nothing and removes the row', async () => {
    const { key } = await add('Class A');
    const result = await mutate(db, { op: 'delete', entity: classEntity, key });
    expect(result.cancelled).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(classEntity).count()).toBe(0);
  });

  it('never folds into an entry that may have reached the server (rule 2)', async () => {
    const { key } = await add('Class A');
    await db.outbox.toCollection().modify({ attempts: 1 });
    await mutate(db, { op: 'update', entity: classEntity, key, values: { class_name: 'Class B' } });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.op)).toEqual(['add', 'update']);
    expect(entries[0].payload.class_name).toBe('Class A');
    expect(entries[1]).toMatchObject({ key, payload: { class_name: 'Class B' } });
    expect(entries[1].base).toMatchObject({ class_name: 'Class A' });
  });

  it('two edits of a server record become one update that keeps the first base', async () => {
    await db.rows(classEntity).put({ class_id: '7', class_name: 'Seven', sort_order: 3 });
    await mutate(db, { op: 'update', entity: classEntity, key: '7', values: { class_name: 'Seven b' } });
    await mutate(db, { op: 'update', entity: classEntity, key: '7', values: { class_name: 'Seven c' } });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'update', payload: { class_name: 'Seven c' } });
    expect(entries[0].base).toMatchObject({ class_name: 'Seven', sort_order: 3 });
  });

  it('does not fold an edit past a change that names the record as its parent', async () => {
    await db.rows(seriesEntity).put({ series_id: '4', series_name: 'Four', class_id: '1', subject_id: '1' });
    // The series moves to class 2, a book is added to it there, then the series moves to class 3:
    // the book must reach the server while the series is in class 2.
    await mutate(db, { op: 'update', entity: seriesEntity, key: '4', values: { class_id: '2' } });
    await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: { class_id: '2', subject_id: '1', series_id: '4', book_name: 'B', book_code: 'B' },
    });
    await mutate(db, { op: 'update', entity: seriesEntity, key: '4', values: { class_id: '3' } });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.entity, e.op, e.payload.class_id])).toEqual([
      ['series', 'update', '2'],
      ['book', 'add', '2'],
      ['series', 'update', '3'],
    ]);
  });

  it('deleting a server record drops its unsent edit and queues one delete', async () => {
    await db.rows(classEntity).put({ class_id: '7', class_name: 'Seven', sort_order: 3 });
    await mutate(db, { op: 'update', entity: classEntity, key: '7', values: { class_name: 'Seven b' } });
    await mutate(db, { op: 'delete', entity: classEntity, key: '7' });
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => e.op)).toEqual(['delete']);
    expect(await db.rows(classEntity).get('7')).toBeUndefined();
  });

  it('keeps an unsent edit that a change of another record queued after it may count on', async () => {
    await db.rows(classEntity).bulkPut([
      { class_id: '7', class_name: 'Seven', sort_order: 3 },
      { class_id: '8', class_name: 'Eight', sort_order: 4 },
    ]);
    // Seven frees its name, Eight takes it: the server must see the rename before the other.
    await mutate(db, { op: 'update', entity: classEntity, key: '7', values: { class_name: 'Seven b' } });
    await mutate(db, { op: 'update', entity: classEntity, key: '8', values: { class_name: 'Seven' } });
    await mutate(db, { op: 'delete', entity: classEntity, key: '7' });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => `${e.op} ${e.key}`)).toEqual(['update 7', 'update 8', 'delete 7']);
  });
});

describe('temporary ids (rule 3)', () => {
  it('after the server names a record, the old id still finds it and queued entries follow', async () => {
    const { key } = await add('Class A');
    await db.outbox.toCollection().modify({ attempts: 1, status: 'sending' });
    await mutate(db, { op: 'update', entity: classEntity, key, values: { class_name: 'Class B' } });
    const [addEntry] = await db.outbox.orderBy('seq').toArray();
    await applyServerIds(db, [{ entity: 'class', tempId: key, serverId: '41', seq: addEntry.seq! }]);
    expect(await db.rows(classEntity).get(key)).toBeUndefined();
    expect(await getRow(db, classEntity, key)).toMatchObject({ class_id: '41', class_name: 'Class B' });
    const left = await db.outbox.toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ op: 'update', key: '41' });
  });
});

describe('list queries run on the local store', () => {
  it('searches case-insensitively, pages, counts and marks pending rows', async () => {
    await db.rows(classEntity).bulkPut(
      Array.from({ length: 25 }, (_, i) => ({
        class_id: String(i + 1),
        class_name: `Grade ${i + 1}`,
        sort_order: 0,
      })),
    );
    const { key } = await add('Kindergarten');
    const page3 = await listRows(db, classEntity, { page: 3 });
    expect(page3.total).toBe(26);
    expect(page3.rows.map((r) => r.class_name)).toEqual([
      'Grade 21',
      'Grade 22',
      'Grade 23',
      'Grade 24',
      'Grade 25',
      'Kindergarten',
    ]);
    expect(page3.pending.has(key)).toBe(true);
    const found = await listRows(db, classEntity, { search: 'grade 1' });
    expect(found.total).toBe(11);
    expect(found.rows[0].class_name).toBe('Grade 1');
    const beyond = await listRows(db, classEntity, { search: 'GARTEN', page: 9 });
    expect(beyond).toMatchObject({ total: 1, page: 1 });
  });
});
