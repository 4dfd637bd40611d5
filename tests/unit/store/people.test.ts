/**
 * People on the local store: status toggles that fold (two toggles send nothing), assignments
 * queued as whole sets that fold with later changes of the same set, temporary book ids in a
 * set replaced when the server names the book, the three-way merge of a set, the requests a
 * set's replacement becomes, and the dashboard's figures.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogueSets } from '../../../src/contract/catalogue/entity-catalogue';
import { bookEntity, entities, schoolEntity, teacherEntity } from '../../../src/contract/entities';
import { dashboardFigures } from '../../../src/db/dashboard/dashboard-figures';
import type { LocalDb } from '../../../src/db/database';
import { patchSyncState } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { requestOptions } from '../../../src/sync/api/encode-request';
import { entryRequest } from '../../../src/sync/entry-request';
import { mergeSet } from '../../../src/sync/merge/merge-set';
import { planQueue } from '../../../src/sync/plan';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('people', (opened) => {
  db = opened;
});
beforeEach(async () => {
  await db.rows(bookEntity).bulkPut([
    { book_id: '1', book_name: 'One', class_id: '1', subject_id: '1', series_id: '1' },
    { book_id: '2', book_name: 'Two', class_id: '1', subject_id: '1', series_id: '1' },
    { book_id: '3', book_name: 'Three', class_id: '1', subject_id: '1', series_id: '1' },
  ]);
  await db
    .rows(schoolEntity)
    .put({ school_id: '5', school_name: 'Green Valley', status: 'Enabled', books: ['1'] });
  await db
    .rows(teacherEntity)
    .put({ teacher_id: '8', teacher_name: 'Asha', school_id: '5', status: 'Enabled', books: [] });
});

const assign = (ids: string[]) =>
  mutate(db, { op: 'relate', entity: schoolEntity, key: '5', relation: 'books', ids });
const toggle = (value: string) =>
  mutate(db, { op: 'set', entity: teacherEntity, key: '8', action: 'status', value });

describe('status toggles fold', () => {
  it('two toggles of one record made offline send nothing', async () => {
    await toggle('Disabled');
    expect(await db.outbox.count()).toBe(1);
    const back = await toggle('Enabled');
    expect(back.cancelled).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.rows(teacherEntity).get('8'))?.status).toBe('Enabled');
  });
});

describe('assignments are queued as whole sets', () => {
  it('the set shows at once; later changes of it fold into one entry; its base stays the first', async () => {
    await assign(['1', '2']);
    await assign(['2', '3']);
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'relate', relation: 'books', payload: { books: ['2', '3'] } });
    expect(entries[0].base?.books).toEqual(['1']);
    expect((await db.rows(schoolEntity).get('5'))?.books).toEqual(['2', '3']);
  });

  it('back to the set it began with, or the same set again, sends nothing', async () => {
    await assign(['1', '2']);
    expect((await assign(['1'])).cancelled).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect((await assign(['1'])).cancelled).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a set naming a book added after the unsent one is queued after that add, not folded before it', async () => {
    await assign(['1', '2']);
    const book = await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: { class_id: '1', subject_id: '1', series_id: '1', book_name: 'New', book_code: 'N' },
    });
    await assign(['2', book.key]);
    const entries = (await db.outbox.toArray()).sort((a, b) => a.seq - b.seq);
    expect(entries.map((e) => [e.op, e.payload.books ?? null])).toEqual([
      ['relate', ['1', '2']],
      ['add', null],
      ['relate', ['2', book.key]],
    ]);
    expect(entries[2].base?.books).toEqual(['1', '2']);
    expect(planQueue(entries, (id) => (id === book.key ? null : id), Date.now()).orphans).toEqual([]);
    // Without the book, the set folds again into the newest unsent one.
    await assign(['3']);
    expect((await db.outbox.toArray()).map((e) => e.payload.books ?? null)).toEqual([
      ['1', '2'],
      null,
      ['3'],
    ]);
  });

  it('becomes the replace request with server ids; a book added offline holds it back until named', async () => {
    const book = await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: { class_id: '1', subject_id: '1', series_id: '1', book_name: 'New', book_code: 'N' },
    });
    await assign(['1', book.key]);
    const relate = (await db.outbox.toArray()).find((e) => e.op === 'relate')!;
    expect(entryRequest(relate, (id) => (id === book.key ? null : id))).toBeNull();
    const request = entryRequest(relate, (id) => (id === book.key ? '77' : id))!;
    expect({ path: request.path, ...requestOptions(request) }).toEqual({
      path: 'Users/Schools/assignbook.php',
      method: 'POST',
      json: { school_id: '5', books: [{ book_id: '1' }, { book_id: '77' }] },
    });

    const add = (await db.outbox.toArray()).find((e) => e.op === 'add')!;
    await applyServerIds(db, [{ entity: 'book', tempId: book.key, serverId: '77', seq: add.seq }]);
    expect((await db.rows(schoolEntity).get('5'))?.books).toEqual(['1', '77']);
  });

  it('a book added and deleted offline leaves the queued set, which then waits for nothing', async () => {
    const book = await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: { class_id: '1', subject_id: '1', series_id: '1', book_name: 'New', book_code: 'N' },
    });
    await assign(['1', book.key]);
    expect((await mutate(db, { op: 'delete', entity: bookEntity, key: book.key })).cancelled).toBe(true);
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => e.op)).toEqual(['relate']);
    expect(entries[0].payload.books).toEqual(['1']);
    expect(entryRequest(entries[0], (id) => id)).not.toBeNull();
    expect((await db.rows(schoolEntity).get('5'))?.books).toEqual(['1']);
  });
});

describe('the three-way merge of a set', () => {
  it('keeps what this device added and removed, and what others changed meanwhile', () => {
    // Began with {1, 2}; this device removed 2 and added 3; meanwhile the server gained 4 and lost 1.
    expect(mergeSet(['1', '2'], ['1', '3'], ['2', '4']).sort()).toEqual(['3', '4']);
    // Nothing changed here: the server's set stands.
    expect(mergeSet(['1'], ['1'], ['1', '5'])).toEqual(['1', '5']);
    // Sent again after its reply was lost: the same result.
    expect(mergeSet(['1', '2'], ['1', '3'], ['3', '4']).sort()).toEqual(['3', '4']);
  });
});

describe('dashboard figures', () => {
  it('count teachers, disabled teachers and books in no set, from the local store', async () => {
    const tables = {
      teachers: 'teachers',
      books: 'books',
      bookSets: catalogueSets(entities).filter((s) => s.target === 'book'),
    };
    // None before the device's first sync has completed: what arrived so far is not a count.
    expect(await dashboardFigures(db, tables)).toBeNull();
    await patchSyncState(db, { lastSyncedAt: Date.now() });
    expect(await dashboardFigures(db, tables)).toEqual({
      teachers: 1,
      pendingApprovals: 0,
      booksNotAssigned: 2,
    });
    await toggle('Disabled');
    await mutate(db, { op: 'relate', entity: teacherEntity, key: '8', relation: 'books', ids: ['2'] });
    expect(await dashboardFigures(db, tables)).toEqual({
      teachers: 1,
      pendingApprovals: 1,
      booksNotAssigned: 1,
    });
  });
});
