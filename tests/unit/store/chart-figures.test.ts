/**
 * The dashboard's charts' figures (src/db/dashboard/chart-data.ts): the ten schools
 * with the most people and "Others", ties; active and inactive by status; the most assigned
 * books from the sets' indexes; teachers added per week over 13 weeks. Counts by a field come
 * from the list engine run in place on fake-indexeddb, as the list worker runs it.
 */
import { describe, expect, it, vi } from 'vitest';
import { catalogueSets } from '../../../src/contract/catalogue/entity-catalogue';
import { entities, schoolEntity, studentEntity, teacherEntity } from '../../../src/contract/entities';
import {
  activeShare,
  assignedBookCounts,
  mostAssigned,
  parseStoredDate,
  schoolShares,
  weeklyAdded,
  weekStart,
} from '../../../src/db/dashboard/chart-data';
import type { LocalDb } from '../../../src/db/database';
import { CountWatches } from '../../../src/db/list-engine/count-watches';
import { ListEngine } from '../../../src/db/list-engine/engine';
import type { FromWorker } from '../../../src/db/list-engine/protocol';
import { engineSpecs } from '../../../src/db/list-engine/spec';
import { mutate } from '../../../src/db/mutate';
import { openLocalDb } from '../../../src/db/open';
import { listEngineOf } from '../../../src/db/queries';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('chart-figures', (opened) => {
  db = opened;
});

const counts = async (entity: string, field: string) =>
  Object.fromEntries(await listEngineOf(db).counts(entity, {}, field, true));

describe('people per school', () => {
  it('keeps the ten schools with the most students and teachers and adds up the rest as Others', async () => {
    // School i has i students and one teacher (schools 1..13): 13..4 are the ten, 1..3 the rest.
    const students = [];
    for (let school = 1; school <= 13; school++)
      for (let k = 0; k < school; k++)
        students.push({ student_id: `${school}-${k}`, student_name: 'S', school_id: String(school) });
    await db.rows(studentEntity).bulkPut(students);
    await db.rows(teacherEntity).bulkPut(
      Array.from({ length: 13 }, (_, i) => ({
        teacher_id: String(i + 1),
        teacher_name: 'T',
        school_id: String(i + 1),
      })),
    );
    const shares = schoolShares(await counts('student', 'school_id'), await counts('teacher', 'school_id'));
    expect(shares.map((s) => s.id ?? 'others')).toEqual([
      '13',
      '12',
      '11',
      '10',
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      'others',
    ]);
    expect(shares[0]).toEqual({ id: '13', students: 13, teachers: 1, schools: 1 });
    expect(shares[10]).toEqual({ students: 1 + 2 + 3, teachers: 3, schools: 3 });
  });

  it('orders ties by students, then by the school added first (ids as numbers, made here last)', () => {
    const shares = schoolShares(
      { '10': 2, '9': 2, 'tmp-a': 2, '2': 1, '3': 3 },
      { '10': 1, '9': 1, 'tmp-a': 1, '2': 2 },
    );
    expect(shares.map((s) => s.id)).toEqual(['3', '9', '10', 'tmp-a', '2']);
  });

  it('has no Others line with ten schools or fewer, and leaves out rows without a school', () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i + 1), 1]));
    expect(schoolShares({ ...ten, '': 5 }, {})).toHaveLength(10);
    expect(schoolShares({ ...ten, '': 5 }, {}).every((s) => s.id)).toBe(true);
  });
});

describe('active and inactive', () => {
  it('counts Disabled as inactive and every other status as active, from the status counts', async () => {
    await db.rows(schoolEntity).bulkPut([
      { school_id: '1', school_name: 'A', status: 'Enabled' },
      { school_id: '2', school_name: 'B', status: 'Disabled' },
      { school_id: '3', school_name: 'C', status: 'Enabled' },
    ]);
    expect(activeShare(await counts('school', 'status'))).toEqual({ active: 2, inactive: 1 });
    // A record made here starts Enabled; a status the server left empty is not Disabled.
    await mutate(db, { op: 'add', entity: schoolEntity, values: { school_name: 'Here' } });
    expect(activeShare(await counts('school', 'status'))).toEqual({ active: 3, inactive: 1 });
    expect(activeShare({ '': 2, Disabled: 4 })).toEqual({ active: 2, inactive: 4 });
    expect(activeShare({})).toEqual({ active: 0, inactive: 0 });
  });
});

describe('most assigned books', () => {
  it('counts each book’s holders per table from the sets and keeps the ten held most, ties by id', async () => {
    await db.rows(schoolEntity).bulkPut([{ school_id: '1', school_name: 'A', books: ['5', '7'] }]);
    await db.rows(teacherEntity).bulkPut([
      { teacher_id: '1', teacher_name: 'T', school_id: '1', books: ['7'] },
      { teacher_id: '2', teacher_name: 'U', school_id: '1', books: [] },
    ]);
    await db.rows(studentEntity).bulkPut([
      { student_id: '1', student_name: 'S', school_id: '1', books: ['7', '3'] },
      { student_id: '2', student_name: 'R', school_id: '1', books: ['3', '5'] },
      { student_id: '3', student_name: 'Q', school_id: '1' },
    ]);
    const sets = catalogueSets(entities).filter((s) => s.target === 'book');
    const byBook = await assignedBookCounts(db, sets);
    expect(Object.fromEntries(byBook)).toEqual({
      '3': { students: 2 },
      '5': { schools: 1, students: 1 },
      '7': { schools: 1, teachers: 1, students: 1 },
    });
    expect(mostAssigned(byBook).map((b) => [b.id, b.total])).toEqual([
      ['7', 3],
      ['3', 2],
      ['5', 2],
    ]);
    const many = new Map(Array.from({ length: 12 }, (_, i) => [String(i + 1), { students: i % 3 }]));
    expect(mostAssigned(many).map((b) => b.id)).toEqual(['3', '6', '9', '12', '2', '5', '8', '11', '1', '4']);
  });
});

describe('teachers added per week', () => {
  // Thursday 26 November 2026, 10:00 local time: its week starts on Monday 23 November.
  const now = new Date(2026, 10, 26, 10, 0);
  const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).toISOString();

  it('starts weeks on Monday, 00:00 local time', () => {
    expect(weekStart(now)).toEqual(new Date(2026, 10, 23));
    expect(weekStart(new Date(2026, 10, 23, 0, 0))).toEqual(new Date(2026, 10, 23));
    expect(weekStart(new Date(2026, 10, 22, 23, 59))).toEqual(new Date(2026, 10, 16));
  });

  it('counts 13 weeks up to this one, oldest first; no date (not yet sent) and later dates in this week', async () => {
    await db.rows(teacherEntity).bulkPut([
      { teacher_id: '1', teacher_name: 'A', school_id: '1', date_added: local(2026, 11, 23, 0) },
      { teacher_id: '2', teacher_name: 'B', school_id: '1', date_added: local(2026, 11, 22, 23) },
      { teacher_id: '3', teacher_name: 'C', school_id: '1', date_added: local(2026, 8, 31) },
      { teacher_id: '4', teacher_name: 'D', school_id: '1', date_added: local(2026, 8, 30) },
      { teacher_id: '5', teacher_name: 'E', school_id: '1', date_added: local(2026, 12, 1) },
      { teacher_id: '6', teacher_name: 'F', school_id: '1', date_added: 'not a date' },
      // The PHP server's form of a date.
      { teacher_id: '7', teacher_name: 'G', school_id: '1', date_added: '2026-11-24 08:30:00' },
    ]);
    await mutate(db, { op: 'add', entity: teacherEntity, values: { teacher_name: 'Here', school_id: '1' } });
    const weeks = weeklyAdded(await counts('teacher', 'date_added'), now);
    expect(weeks).toHaveLength(13);
    expect(weeks[0].start).toEqual(new Date(2026, 7, 31));
    expect(weeks[12].start).toEqual(new Date(2026, 10, 23));
    // This week: teacher 1 (Monday 00:00), 7, 5 (a later date) and the one added here.
    expect(weeks.map((w) => w.count)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4]);
  });

  it('reads both our server’s and the PHP server’s dates', () => {
    expect(parseStoredDate('2026-11-24 08:30:00')).toBe(new Date(2026, 10, 24, 8, 30).getTime());
    expect(parseStoredDate('2026-11-24T08:30:00.000Z')).toBe(Date.UTC(2026, 10, 24, 8, 30));
    expect(parseStoredDate('soon')).toBeNaN();
  });
});

describe('counts kept current by the worker (count-watches.ts)', () => {
  it('pushes counts and holders equal to a recount after rows are added, a status changes, a row goes and a book is assigned', async () => {
    const sets = catalogueSets(entities).filter((s) => s.target === 'book');
    const asked = {
      counts: [
        { entity: 'student', field: 'school_id' },
        { entity: 'student', field: 'status' },
        { entity: 'teacher', field: 'status' },
      ],
      sets,
    };
    // The engine and the watches as the list worker runs them, on their own engine (not the
    // cached one the recount below asks).
    const engine = new ListEngine(db, engineSpecs(entities));
    const posted: FromWorker[] = [];
    const watches = new CountWatches(engine, db, (m) => posted.push(m));
    const stop = engine.onChange((changed) => watches.entitiesChanged(changed));
    const last = (part: 'counts' | 'holders') =>
      posted.flatMap((m) => (m.type === 'counted' && m.answer.part === part ? [m.answer] : [])).at(-1);
    const recount = async () => ({
      counts: await Promise.all(asked.counts.map((c) => counts(c.entity, c.field))),
      holders: Object.fromEntries(await assignedBookCounts(db, sets)),
    });
    const pushedEqualRecount = async () => {
      const want = await recount();
      await vi.waitFor(
        () => {
          const c = last('counts');
          const h = last('holders');
          expect(c?.part === 'counts' && c.counts).toEqual(want.counts);
          expect(h?.part === 'holders' && Object.fromEntries(h.holders)).toEqual(want.holders);
        },
        { timeout: 10_000, interval: 20 },
      );
    };
    try {
      await db.rows(schoolEntity).bulkPut([
        { school_id: '1', school_name: 'A', status: 'Enabled' },
        { school_id: '2', school_name: 'B', status: 'Enabled' },
      ]);
      await db.rows(studentEntity).bulkPut([
        { student_id: '1', student_name: 'S', school_id: '1', status: 'Enabled', books: ['7'] },
        { student_id: '2', student_name: 'R', school_id: '2', status: 'Enabled' },
      ]);
      watches.watch(1, asked);
      await pushedEqualRecount();
      expect(last('counts')).toEqual({
        part: 'counts',
        counts: [{ '1': 1, '2': 1 }, { Enabled: 2 }, {}],
      });

      // Rows added (a pull's rows and an add made here).
      await db.rows(studentEntity).bulkPut([
        { student_id: '3', student_name: 'Q', school_id: '2', status: 'Disabled' },
        { student_id: '4', student_name: 'P', school_id: '2', status: 'Enabled' },
      ]);
      await db
        .rows(teacherEntity)
        .bulkPut([{ teacher_id: '1', teacher_name: 'T', school_id: '1', status: 'Enabled' }]);
      await mutate(db, {
        op: 'add',
        entity: studentEntity,
        values: { student_name: 'Here', school_id: '1' },
      });
      await pushedEqualRecount();
      expect(last('counts')).toMatchObject({
        counts: [{ '1': 2, '2': 3 }, { Enabled: 4, Disabled: 1 }, { Enabled: 1 }],
      });

      // A status changed, through the toggle's path.
      await mutate(db, { op: 'set', entity: studentEntity, key: '2', action: 'status', value: 'Disabled' });
      await pushedEqualRecount();
      expect(last('counts')).toMatchObject({ counts: [{}, { Enabled: 3, Disabled: 2 }, {}] });

      // A row deleted.
      await db.rows(studentEntity).delete('3');
      await pushedEqualRecount();
      expect(last('counts')).toMatchObject({ counts: [{ '2': 2 }, { Enabled: 3, Disabled: 1 }, {}] });

      // A book assigned (a set: outside the list index, followed by its table's writes).
      await db.rows(teacherEntity).update('1', { books: ['7', '9'] });
      await pushedEqualRecount();
      expect(Object.fromEntries((last('holders') as { holders: [string, unknown][] }).holders)).toEqual({
        '7': { students: 1, teachers: 1 },
        '9': { teachers: 1 },
      });

      // An unwatched watch hears no more.
      watches.unwatch(1);
      const before = posted.length;
      await db.rows(studentEntity).delete('4');
      await engine.counts('student', {}, 'status', true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(posted.length).toBe(before);
    } finally {
      stop();
      watches.close();
      engine.close();
    }
  });

  it('posts only what moved: a status toggle moves no holders, a rename no counts; a book assigned elsewhere moves the holders, 60 rows at once count them again', async () => {
    const sets = catalogueSets(entities).filter((s) => s.target === 'book');
    const asked = { counts: [{ entity: 'student', field: 'status' }], sets };
    const engine = new ListEngine(db, engineSpecs(entities));
    const posted: FromWorker[] = [];
    const watches = new CountWatches(engine, db, (m) => posted.push(m));
    const stop = engine.onChange((changed) => watches.entitiesChanged(changed));
    const answers = (part: 'counts' | 'holders') =>
      posted.flatMap((m) => (m.type === 'counted' && m.answer.part === part ? [m.answer] : []));
    const lastHolders = () => {
      const h = answers('holders').at(-1);
      return h?.part === 'holders' ? Object.fromEntries(h.holders) : undefined;
    };
    /** How often the holders were brought up to date (each time, posted or not). */
    const followed = () => performance.getEntriesByName('lists counts holders').length;
    const holdersEqualRecount = async () => {
      const want = Object.fromEntries(await assignedBookCounts(db, sets));
      await vi.waitFor(() => expect(lastHolders()).toEqual(want), { timeout: 10_000, interval: 20 });
    };
    const elsewhere = openLocalDb(db.name);
    try {
      await db.rows(schoolEntity).bulkPut([{ school_id: '1', school_name: 'A', books: ['5'] }]);
      await db.rows(studentEntity).bulkPut([
        { student_id: '1', student_name: 'S', school_id: '1', status: 'Enabled', books: ['7', '3'] },
        { student_id: '2', student_name: 'R', school_id: '1', status: 'Enabled', books: ['3'] },
      ]);
      watches.watch(1, asked);
      await holdersEqualRecount();
      expect(lastHolders()).toEqual({ '3': { students: 2 }, '5': { schools: 1 }, '7': { students: 1 } });

      // A status toggled on a student holding books: the counts move, the holders do not.
      const holdersPosted = answers('holders').length;
      const before = followed();
      await mutate(db, { op: 'set', entity: studentEntity, key: '1', action: 'status', value: 'Disabled' });
      await vi.waitFor(
        () =>
          expect(answers('counts').at(-1)).toEqual({ part: 'counts', counts: [{ Enabled: 1, Disabled: 1 }] }),
        {
          timeout: 10_000,
          interval: 20,
        },
      );
      await vi.waitFor(() => expect(followed()).toBeGreaterThan(before), { timeout: 10_000, interval: 20 });
      expect(answers('holders').length).toBe(holdersPosted);
      await holdersEqualRecount();

      // A name changed: counted again, the same counts, none posted.
      const countsPosted = answers('counts').length;
      const countedBefore = performance.getEntriesByName('lists counts again').length;
      await mutate(db, {
        op: 'update',
        entity: studentEntity,
        key: '2',
        values: { student_name: 'Renamed' },
      });
      await vi.waitFor(
        () =>
          expect(performance.getEntriesByName('lists counts again').length).toBeGreaterThan(countedBefore),
        { timeout: 10_000, interval: 20 },
      );
      expect(answers('counts').length).toBe(countsPosted);

      // A book assigned and one taken away through another connection to the store (another
      // tab's write reaches the worker so): the holders move by the rows' old and new sets.
      await elsewhere.rows(studentEntity).update('2', { books: ['3', '9'] });
      await elsewhere.rows(studentEntity).update('1', { books: ['7'] });
      await holdersEqualRecount();
      expect(lastHolders()).toEqual({
        '3': { students: 1 },
        '5': { schools: 1 },
        '7': { students: 1 },
        '9': { students: 1 },
      });

      // A record holding books deleted, and 60 rows written at once (the event names a range,
      // not keys): counted again from the index.
      await db.rows(schoolEntity).delete('1');
      await db.rows(studentEntity).bulkPut(
        Array.from({ length: 60 }, (_, i) => ({
          student_id: String(100 + i),
          student_name: `N${i}`,
          school_id: '1',
          books: i % 2 ? ['5'] : [],
        })),
      );
      await holdersEqualRecount();
      expect(lastHolders()).toMatchObject({ '5': { students: 30 } });
      expect(lastHolders()?.['5']).not.toHaveProperty('schools');
    } finally {
      elsewhere.close();
      stop();
      watches.close();
      engine.close();
    }
  });
});
