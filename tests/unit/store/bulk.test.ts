/**
 * Bulk actions on the local store (src/db/bulk/bulk-changes.ts): one entry per row, each the change a single
 * action makes; rows already as asked queue nothing; a row still used is reported with the
 * single delete's words and the others go; slices commit one by one with progress; undo before
 * sending cancels every entry (the rows as they were), undo after sending queues the opposite.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bookEntity, schoolEntity, studentEntity } from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import { stillUsedBy } from '../../../src/contract/messages';
import { applyBulk, type BulkChange, undoBulk } from '../../../src/db/bulk/bulk-changes';
import type { LocalDb } from '../../../src/db/database';
import { writeSignedInUser } from '../../../src/db/meta';
import { mutate, StillUsedError } from '../../../src/db/mutate';
import { openLocalDb } from '../../../src/db/open';
import { requestOptions } from '../../../src/sync/api/encode-request';
import { entryRequest } from '../../../src/sync/entry-request';
import { freshLocalDbEach } from '../../helpers/local-db';

// fake-indexeddb on a loaded machine: a few hundred row writes can take seconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let db: LocalDb;
freshLocalDbEach('bulk', (opened) => {
  db = opened;
});

const STUDENTS = 120;
const keys = Array.from({ length: STUDENTS }, (_, i) => String(i + 1));

beforeEach(async () => {
  await db.rows(bookEntity).bulkPut([
    { book_id: 'b1', book_name: 'One', class_id: '1', subject_id: '1', series_id: '1' },
    { book_id: 'b2', book_name: 'Two', class_id: '1', subject_id: '1', series_id: '1' },
  ]);
  await db.rows(schoolEntity).bulkPut([
    { school_id: 's1', school_name: 'Green Valley', status: 'Enabled', books: [] },
    { school_id: 's2', school_name: 'Empty School', status: 'Enabled', books: [] },
  ]);
  await db.rows(studentEntity).bulkPut(
    keys.map((k, i) => ({
      student_id: k,
      student_name: `Student ${k}`,
      school_id: 's1',
      // Every tenth is disabled already.
      status: i % 10 === 0 ? 'Disabled' : 'Enabled',
      books: i % 2 === 0 ? ['b1'] : [],
    })),
  );
});

const disable = { op: 'set', action: 'status', value: 'Disabled' } as const;

describe('applyBulk', () => {
  it('queues one status change per row that changes, in slices, and none for rows already so', async () => {
    const progress: number[] = [];
    const outcome = await applyBulk(db, studentEntity, keys, disable, {
      slice: 50,
      onProgress: (done) => progress.push(done),
    });
    expect(progress).toEqual([50, 100, 120]);
    expect(outcome).toMatchObject({ changed: 108, unchanged: 12, refused: [] });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(108);
    expect(new Set(entries.map((e) => e.id)).size).toBe(108);
    expect(
      entries.every((e) => e.op === 'set' && e.action === 'status' && e.payload.status === 'Disabled'),
    ).toBe(true);
    const rows = await db.rows(studentEntity).toArray();
    expect(rows.every((r) => r.status === 'Disabled')).toBe(true);
  });

  it('adds books to each set and removes them, keeping the rest of each set', async () => {
    const added = await applyBulk(db, studentEntity, keys, {
      op: 'add-to-set',
      relation: 'books',
      ids: ['b2'],
    });
    expect(added).toMatchObject({ changed: 120, unchanged: 0 });
    expect((await db.rows(studentEntity).get('1'))?.books).toEqual(['b1', 'b2']);
    expect((await db.rows(studentEntity).get('2'))?.books).toEqual(['b2']);
    const removed = await applyBulk(db, studentEntity, keys, {
      op: 'remove-from-set',
      relation: 'books',
      ids: ['b1'],
    });
    expect(removed).toMatchObject({ changed: 60, unchanged: 60 });
    // Folded: one relate entry per row, carrying the whole set it ends with.
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(120);
    expect(entries.find((e) => e.key === '1')?.payload.books).toEqual(['b2']);
  });

  it('reports a row still used with the single delete words and deletes the others', async () => {
    const outcome = await applyBulk(db, schoolEntity, ['s1', 's2'], { op: 'delete' });
    expect(outcome.changed).toBe(1);
    expect(outcome.refused).toEqual([
      { key: 's1', name: 'Green Valley', reason: stillUsedBy(schoolEntity.names, studentEntity.names) },
    ]);
    expect(await db.rows(schoolEntity).get('s1')).toBeDefined();
    expect(await db.rows(schoolEntity).get('s2')).toBeUndefined();
    expect((await db.outbox.toArray()).map((e) => [e.op, e.key])).toEqual([['delete', 's2']]);
  });

  it("folds into a row's unsent change as a single toggle would, beside rows queued at once", async () => {
    await mutate(db, { op: 'set', entity: studentEntity, key: '2', action: 'status', value: 'Disabled' });
    const outcome = await applyBulk(db, studentEntity, ['1', '2', '3'], {
      op: 'set',
      action: 'status',
      value: 'Enabled',
    });
    expect(outcome).toMatchObject({ changed: 2, unchanged: 1 });
    // Student 2 back to where it began: its unsent toggle cancelled, nothing to send for it.
    expect((await db.outbox.toArray()).map((e) => [e.key, e.payload.status])).toEqual([['1', 'Enabled']]);
    expect((await db.rows(studentEntity).bulkGet(['1', '2', '3'])).map((r) => r?.status)).toEqual([
      'Enabled',
      'Enabled',
      'Enabled',
    ]);
  });

  it('deletes a hundred rows a slice in one bulk write each', async () => {
    // A slice's rows are checked for "still used" together, with no await that is not the
    // store's per row (a hundred of those in a row made Dexie commit the slice early).
    const outcome = await applyBulk(db, studentEntity, keys, { op: 'delete' });
    expect(outcome).toMatchObject({ changed: 120, refused: [] });
    expect(await db.rows(studentEntity).count()).toBe(0);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.op, e.key])).toEqual(keys.map((k) => ['delete', k]));
  });

  it('reports a row no longer on the device', async () => {
    const outcome = await applyBulk(db, studentEntity, ['1', 'gone'], disable);
    expect(outcome.refused.map((r) => r.key)).toEqual(['gone']);
    expect(outcome.changed).toBe(0);
    expect(outcome.unchanged).toBe(1);
  });
});

describe("each row is the single action's own change", () => {
  it('sends the request a single toggle, delete or assignment sends, to the legacy endpoint', async () => {
    const requestOf = async () => {
      const [entry] = await db.outbox.toArray();
      const request = entryRequest(entry, (id) => id);
      await db.outbox.clear();
      return request && { path: request.path, ...requestOptions(request) };
    };
    await applyBulk(db, studentEntity, ['2'], disable);
    const bulkToggle = await requestOf();
    await db.rows(studentEntity).update('2', { status: 'Enabled' });
    await mutate(db, { op: 'set', entity: studentEntity, key: '2', action: 'status', value: 'Disabled' });
    expect(bulkToggle).toEqual(await requestOf());
    expect(bulkToggle?.path).toBe('Users/Students/togglestudentstatus.php');

    await applyBulk(db, studentEntity, ['2'], { op: 'add-to-set', relation: 'books', ids: ['b1'] });
    const bulkAssign = await requestOf();
    await db.rows(studentEntity).update('2', { books: [] });
    await mutate(db, { op: 'relate', entity: studentEntity, key: '2', relation: 'books', ids: ['b1'] });
    expect(bulkAssign).toEqual(await requestOf());
    expect(bulkAssign?.path).toBe('Users/Students/assignbook.php');

    await applyBulk(db, studentEntity, ['3'], { op: 'delete' });
    const bulkDelete = await requestOf();
    await mutate(db, { op: 'delete', entity: studentEntity, key: '4' });
    expect(bulkDelete?.path).toBe((await requestOf())?.path);
    expect(bulkDelete?.path).toBe('Users/Students/deletestudent.php');
  });
});

describe('undoBulk', () => {
  it('before sending, cancels every entry and puts the rows back', async () => {
    const before = await db.rows(studentEntity).toArray();
    const set = await applyBulk(db, studentEntity, keys, disable);
    const relate = await applyBulk(db, studentEntity, keys, {
      op: 'add-to-set',
      relation: 'books',
      ids: ['b2'],
    });
    expect(await undoBulk(db, studentEntity, relate.undo)).toEqual({ undone: 120, kept: 0 });
    expect(await undoBulk(db, studentEntity, set.undo)).toEqual({ undone: 108, kept: 0 });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(studentEntity).toArray()).toEqual(before);
  });

  it('brings deleted rows back with the unsent changes the delete took away', async () => {
    await db.rows(studentEntity).clear();
    await mutate(db, { op: 'update', entity: schoolEntity, key: 's2', values: { school_name: 'Renamed' } });
    const before = await db.outbox.toArray();
    const outcome = await applyBulk(db, schoolEntity, ['s1', 's2'], { op: 'delete' });
    expect(outcome.changed).toBe(2);
    expect(await db.rows(schoolEntity).count()).toBe(0);
    expect(await undoBulk(db, schoolEntity, outcome.undo)).toEqual({ undone: 2, kept: 0 });
    expect(await db.outbox.toArray()).toEqual(before);
    expect((await db.rows(schoolEntity).get('s2'))?.school_name).toBe('Renamed');
    expect(await db.rows(schoolEntity).get('s1')).toBeDefined();
  });

  it('after sending, keeps a sent delete and queues the opposite of a sent toggle', async () => {
    await db.rows(studentEntity).clear();
    const deleted = await applyBulk(db, schoolEntity, ['s1', 's2'], { op: 'delete' });
    const toggled = await applyBulk(db, studentEntity, [], disable);
    expect(toggled.changed).toBe(0);
    // A replayer sent the first delete (rule 2: an attempt means it may be applied).
    const first = await db.outbox.orderBy('seq').first();
    await db.outbox.update(first?.seq ?? 0, { attempts: 1, status: 'sending' });
    expect(await undoBulk(db, schoolEntity, deleted.undo)).toEqual({ undone: 1, kept: 1 });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.rows(schoolEntity).get('s1')).toBeUndefined();
    expect(await db.rows(schoolEntity).get('s2')).toBeDefined();
  });

  it('queues the opposite toggle for a row whose toggle was already sent', async () => {
    const set = await applyBulk(db, studentEntity, ['2', '3'], disable);
    const sent = await db.outbox.orderBy('seq').first();
    await db.outbox.update(sent?.seq ?? 0, { attempts: 1, status: 'sending' });
    expect(await undoBulk(db, studentEntity, set.undo)).toEqual({ undone: 2, kept: 0 });
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => [e.key, e.payload.status])).toEqual([
      ['2', 'Disabled'],
      ['2', 'Enabled'],
    ]);
    expect((await db.rows(studentEntity).get('2'))?.status).toBe('Enabled');
  });

  it('leaves a row changed again since the bulk change', async () => {
    const set = await applyBulk(db, studentEntity, ['2'], disable);
    await mutate(db, { op: 'set', entity: studentEntity, key: '2', action: 'status', value: 'Enabled' });
    await mutate(db, { op: 'update', entity: studentEntity, key: '2', values: { student_name: 'X' } });
    await mutate(db, { op: 'set', entity: studentEntity, key: '2', action: 'status', value: 'Disabled' });
    await db.rows(studentEntity).update('2', { status: 'Enabled' });
    expect(await undoBulk(db, studentEntity, set.undo)).toEqual({ undone: 0, kept: 1 });
  });
});

/**
 * The bulk write (src/db/mutations/quiet-rows.ts: rows with nothing queued, written a slice at a time)
 * against the one-by-one path it replaces, each on its own store with the same rows and queue: a `mutate` per
 * row, a delete refused with its StillUsedError. Both must leave the same rows, the same sets,
 * the same outbox entries in the same order (ids and times aside: each entry gets its own) and
 * the same refusals.
 */
describe('the bulk write leaves what one mutate per row leaves', () => {
  let peer: LocalDb;
  let peerName = 0;
  beforeEach(async () => {
    peer = openLocalDb(`bulk-peer-${++peerName}`);
    await peer.open();
    for (const store of [db, peer]) {
      await writeSignedInUser(store, 'admin');
      await store.rows(bookEntity).bulkPut(await db.rows(bookEntity).toArray());
      await store.rows(schoolEntity).bulkPut(await db.rows(schoolEntity).toArray());
      await store.rows(studentEntity).bulkPut(await db.rows(studentEntity).toArray());
    }
    await peer.rows(schoolEntity).update('s1', { books: ['b1', 'b2'] });
    await db.rows(schoolEntity).update('s1', { books: ['b1', 'b2'] });
    // Rows with queued changes of every kind: an unsent edit, an unsent toggle, a sent toggle,
    // another administrator's edit, and a student added here (a temporary id).
    for (const store of [db, peer]) {
      await mutate(store, {
        op: 'update',
        entity: studentEntity,
        key: '3',
        values: { student_name: 'Three' },
      });
      await mutate(store, {
        op: 'set',
        entity: studentEntity,
        key: '4',
        action: 'status',
        value: 'Disabled',
      });
      await mutate(store, {
        op: 'set',
        entity: studentEntity,
        key: '5',
        action: 'status',
        value: 'Disabled',
      });
      const sent = await store.outbox.where('[entity+key]').equals(['student', '5']).first();
      await store.outbox.update(sent?.seq ?? 0, { attempts: 1, status: 'sending' });
      await writeSignedInUser(store, 'other');
      await mutate(store, { op: 'update', entity: studentEntity, key: '6', values: { student_name: 'Six' } });
      await writeSignedInUser(store, 'admin');
    }
  });
  afterEach(async () => {
    peer.close();
    await peer.delete();
  });

  /** Adds the same student on both stores; the temporary ids differ, so each store's is answered. */
  async function addedHere(): Promise<[string, string]> {
    const values = { student_name: 'New here', school_id: 's1', status: 'Enabled' };
    const a = await mutate(db, { op: 'add', entity: studentEntity, values });
    const b = await mutate(peer, { op: 'add', entity: studentEntity, values });
    return [a.key, b.key];
  }

  /** What the one-by-one path does for a key: the single action's own change, a refusal reported. */
  async function oneByOne(
    store: LocalDb,
    entity: EntityDescription,
    keys: readonly string[],
    change: BulkChange,
  ): Promise<{ key: string; reason: string }[]> {
    const refused: { key: string; reason: string }[] = [];
    for (const key of keys) {
      if (change.op === 'delete') {
        try {
          await mutate(store, { op: 'delete', entity, key });
        } catch (error) {
          if (!(error instanceof StillUsedError)) throw error;
          refused.push({ key, reason: error.message });
        }
      } else if (change.op === 'set') {
        const row = await store.rows(entity).get(key);
        if (String(row?.status) !== String(change.value))
          await mutate(store, { op: 'set', entity, key, action: change.action, value: change.value });
      }
    }
    return refused;
  }

  /** The store's temporary id written as NEW: the two stores' differ. */
  const named = (value: unknown, tempId: string) =>
    JSON.parse(JSON.stringify(value).replaceAll(tempId, 'NEW')) as unknown;

  /** A store's outbox in queue order, without what differs from one store to the other. */
  async function queueOf(store: LocalDb, tempId: string) {
    const entries = await store.outbox.orderBy('seq').toArray();
    return named(
      entries.map(({ id, seq, createdAt, ...entry }) => entry),
      tempId,
    );
  }

  async function tablesOf(store: LocalDb, tempId: string) {
    const tables = {
      students: await store.rows(studentEntity).toArray(),
      schools: await store.rows(schoolEntity).toArray(),
      books: await store.rows(bookEntity).toArray(),
    };
    return named(tables, tempId);
  }

  it('a bulk status change', async () => {
    const [mine, theirs] = await addedHere();
    const keys = [...keys20(), mine];
    const outcome = await applyBulk(db, studentEntity, keys, disable, { slice: 7 });
    await oneByOne(peer, studentEntity, [...keys20(), theirs], disable);
    expect(outcome.refused).toEqual([]);
    expect(outcome.changed).toBeGreaterThan(15);
    expect(await queueOf(db, mine)).toEqual(await queueOf(peer, theirs));
    expect(await tablesOf(db, mine)).toEqual(await tablesOf(peer, theirs));
  });

  it('a bulk delete, with the rows still used refused in the same words', async () => {
    const [mine, theirs] = await addedHere();
    // Every student is in the first school: it is still used; the second has none.
    const schools = await applyBulk(db, schoolEntity, ['s1', 's2'], { op: 'delete' });
    const schoolsRefused = await oneByOne(peer, schoolEntity, ['s1', 's2'], { op: 'delete' });
    expect(schools.refused.map(({ key, reason }) => ({ key, reason }))).toEqual(schoolsRefused);
    expect(schoolsRefused).toEqual([
      { key: 's1', reason: stillUsedBy(schoolEntity.names, studentEntity.names) },
    ]);

    const keys = [...keys20(), mine];
    const students = await applyBulk(db, studentEntity, keys, { op: 'delete' }, { slice: 7 });
    await oneByOne(peer, studentEntity, [...keys20(), theirs], { op: 'delete' });
    expect(students.refused).toEqual([]);
    expect(students.changed).toBe(keys.length);
    // Books held by sets (the students' and the schools'): a delete takes them out of every set.
    const books = await applyBulk(db, bookEntity, ['b1', 'b2'], { op: 'delete' });
    await oneByOne(peer, bookEntity, ['b1', 'b2'], { op: 'delete' });
    expect(books.changed).toBe(2);
    expect(await queueOf(db, mine)).toEqual(await queueOf(peer, theirs));
    expect(await tablesOf(db, mine)).toEqual(await tablesOf(peer, theirs));
    expect((await db.rows(studentEntity).get('21'))?.books).toEqual([]);
    expect(await db.rows(schoolEntity).get('s2')).toBeUndefined();
    expect((await db.rows(schoolEntity).get('s1'))?.books).toEqual([]);
  });
});

/** The first twenty students: quiet rows and the rows with queued changes (3 to 6). */
const keys20 = () => keys.slice(0, 20);
