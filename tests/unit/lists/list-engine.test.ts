/**
 * The list engine's answers, on fake-indexeddb: orders (ids as numbers, records made
 * here after them, names by collation with accents, both ways), search without case or
 * accents, filters with search, totals and the page cut; the pagination's window of pages; and
 * a list's stale queries, never run or never posted (watches.ts, as the list worker keeps them).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  classEntity,
  entities,
  schoolEntity,
  studentEntity,
  teacherEntity,
} from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { ListEngine } from '../../../src/db/list-engine/engine';
import type { PageQuery } from '../../../src/db/list-engine/entity-index';
import type { FromWorker, ShownPage } from '../../../src/db/list-engine/protocol';
import { engineSpecs } from '../../../src/db/list-engine/spec';
import { PageWatches } from '../../../src/db/list-engine/watches';
import { CHUNK_STORE } from '../../../src/db/list-index/chunk';
import { mutate } from '../../../src/db/mutate';
import { listRows, shownPage } from '../../../src/db/queries';
import { pageWindow } from '../../../src/ui/list/Pagination';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('list-engine', (opened) => {
  db = opened;
});

const classes = (names: Record<string, string>) =>
  db
    .rows(classEntity)
    .bulkPut(Object.entries(names).map(([id, name]) => ({ class_id: id, class_name: name })));
const names = async (q: PageQuery) => (await listRows(db, classEntity, q)).rows.map((r) => r.class_name);
const keys = async (q: PageQuery) => (await listRows(db, classEntity, q)).rows.map((r) => r.class_id);

/** Three students (two Enabled, one Disabled; two at school 7), their list answered once. */
async function studentsListed(): Promise<ListEngine> {
  await db.rows(studentEntity).bulkPut([
    { student_id: '1', student_name: 'Zoë', school_id: '7', status: 'Enabled' },
    { student_id: '2', student_name: 'Ana', school_id: '7', status: 'Disabled' },
    { student_id: '3', student_name: 'Bea', school_id: '8', status: 'Enabled' },
  ]);
  const engine = new ListEngine(db, engineSpecs(entities));
  await engine.page(studentEntity.name, {});
  return engine;
}

describe('orders', () => {
  it('sorts ids as numbers, records made on this device after them, and desc the other way', async () => {
    await classes({ '2': 'B', '10': 'C', '9': 'A', '100': 'D' });
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Here' } });
    expect(await keys({})).toEqual(['2', '9', '10', '100', key]);
    expect(await keys({ sort: { field: 'class_id', dir: 'desc' } })).toEqual([key, '100', '10', '9', '2']);
  });

  it('sorts names by collation: accents and case beside their letters, numbers inside as numbers, ties by id', async () => {
    await classes({
      '1': 'Zoë',
      '2': 'émile',
      '3': 'Class 10',
      '4': 'Zoe',
      '5': 'Class 9',
      '6': 'Adam',
      '7': 'Eve',
    });
    const byName = { sort: { field: 'class_name', dir: 'asc' as const } };
    expect(await names(byName)).toEqual(['Adam', 'Class 9', 'Class 10', 'émile', 'Eve', 'Zoë', 'Zoe']);
    expect(await names({ sort: { field: 'class_name', dir: 'desc' } })).toEqual([
      'Zoe',
      'Zoë',
      'Eve',
      'émile',
      'Class 10',
      'Class 9',
      'Adam',
    ]);
  });

  it('keeps the key order through edits of other values and a page jump, and computes it again when a key comes or goes', async () => {
    await classes({ '3': 'C', '1': 'A', '2': 'B' });
    const keyOrders = () => performance.getEntriesByName('lists key order class', 'measure').length;
    performance.clearMeasures();
    expect(await keys({ pageSize: 2 })).toEqual(['1', '2']);
    expect(keyOrders()).toBe(1);
    await mutate(db, { op: 'update', entity: classEntity, key: '2', values: { class_name: 'Bee' } });
    expect(await names({ pageSize: 2, page: 2 })).toEqual(['C']);
    expect(await names({ pageSize: 2 })).toEqual(['A', 'Bee']);
    expect(keyOrders()).toBe(1);
    await mutate(db, { op: 'delete', entity: classEntity, key: '1' });
    const { key } = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Here' } });
    expect(await keys({})).toEqual(['2', '3', key]);
    expect(keyOrders()).toBe(2);
    expect(await keys({ sort: { field: 'class_id', dir: 'desc' } })).toEqual([key, '3', '2']);
  });

  it('computes the title’s order ahead at once, and the other orders only once the worker is quiet', async () => {
    await db.rows(studentEntity).bulkPut([
      { student_id: '1', student_name: 'Zoë', email: 'a@x.org', status: 'Enabled' },
      { student_id: '2', student_name: 'Ana', email: 'b@x.org', status: 'Disabled' },
    ]);
    const engine = new ListEngine(db, engineSpecs(entities));
    const ordered = () =>
      performance
        .getEntriesByType('measure')
        .map((m) => m.name)
        .filter((n) => n.startsWith('lists order student.'));
    performance.clearMeasures();
    let quiet = () => {};
    const quietNow = new Promise<void>((resolve) => {
      quiet = resolve;
    });
    try {
      // A worker never quiet (someone typing): the title's order is computed all the same.
      const warming = engine.warm(studentEntity.name, () => quietNow);
      await expect.poll(ordered).toEqual(['lists order student.student_name']);
      const byName = { sort: { field: 'student_name', dir: 'asc' as const } };
      expect((await engine.page(studentEntity.name, byName)).keys).toEqual(['2', '1']);
      expect(ordered()).toEqual(['lists order student.student_name']);
      quiet();
      await warming;
      expect(ordered().length).toBeGreaterThan(1);
    } finally {
      engine.close();
    }
  });

  it('a dashboard’s counts read their columns ahead: a list asked meanwhile is answered first, and the counts are exact', async () => {
    const engine = await studentsListed();
    try {
      const answered: string[] = [];
      // The list is asked while the counts read the column of statuses.
      let columnRead = () => {};
      const reading = new Promise<void>((resolve) => {
        columnRead = resolve;
      });
      const getAll = IDBObjectStore.prototype.getAll;
      const spy = vi.spyOn(IDBObjectStore.prototype, 'getAll').mockImplementation(function (
        this: IDBObjectStore,
        ...args
      ) {
        if (this.name === CHUNK_STORE) columnRead();
        return getAll.apply(this, args);
      });
      const counting = engine.counts(studentEntity.name, {}, 'status').then((counts) => {
        answered.push('counts');
        return counts;
      });
      await reading;
      spy.mockRestore();
      // A list's query that reads the heads (as after a change) waits for the engine's queue.
      const paging = engine.page(studentEntity.name, { search: 'a' }, true).then((page) => {
        answered.push('page');
        return page;
      });
      expect((await paging).keys).toEqual(['2', '3']);
      expect(Object.fromEntries(await counting)).toEqual({ Enabled: 2, Disabled: 1 });
      expect(answered).toEqual(['page', 'counts']);
      // A row written after the columns were read is counted: the counts follow the rows.
      await db
        .rows(studentEntity)
        .put({ student_id: '4', student_name: 'Cy', school_id: '8', status: 'Disabled' });
      expect(Object.fromEntries(await engine.counts(studentEntity.name, {}, 'status', true))).toEqual({
        Enabled: 2,
        Disabled: 2,
      });
    } finally {
      engine.close();
    }
  });

  it('counts whose screen has gone read no column: the store is left to the list opened next', async () => {
    const engine = await studentsListed();
    try {
      let columnReads = 0;
      const getAll = IDBObjectStore.prototype.getAll;
      const spy = vi.spyOn(IDBObjectStore.prototype, 'getAll').mockImplementation(function (
        this: IDBObjectStore,
        ...args
      ) {
        if (this.name === CHUNK_STORE) columnReads += 1;
        return getAll.apply(this, args);
      });
      try {
        // The dashboard asks its counts and is left before their columns' turn comes.
        const shown = new AbortController();
        const bySchool = engine.counts(studentEntity.name, {}, 'school_id', false, shown.signal);
        const byStatus = engine.counts(studentEntity.name, {}, 'status', false, shown.signal);
        shown.abort();
        await expect(bySchool).rejects.toMatchObject({ name: 'AbortError' });
        await expect(byStatus).rejects.toMatchObject({ name: 'AbortError' });
        expect(columnReads).toBe(0);
        // Shown again, they are read and exact.
        expect(Object.fromEntries(await engine.counts(studentEntity.name, {}, 'status'))).toEqual({
          Enabled: 2,
          Disabled: 1,
        });
        expect(columnReads).toBeGreaterThan(0);
      } finally {
        spy.mockRestore();
      }
    } finally {
      engine.close();
    }
  });

  it('an unknown sort field falls back to the list’s own order', async () => {
    await classes({ '3': 'C', '1': 'A', '2': 'B' });
    expect(await keys({ sort: { field: 'password', dir: 'desc' } })).toEqual(['1', '2', '3']);
  });
});

describe('search, filters, totals and pages', () => {
  it('a search over a parent’s name (no folded column kept) finds rows by the parent’s current name', async () => {
    // The index folds only what a row holds; a list that searched its school's name would
    // search the school's current title, folded by the engine.
    const searched = {
      ...studentEntity,
      list: { ...studentEntity.list, search: ['student_name', 'school_name'] },
    };
    const specs = engineSpecs(entities.map((e) => (e.name === studentEntity.name ? searched : e)));
    expect(specs.get(studentEntity.name)?.projection.fields.some((f) => f.startsWith(':search'))).toBe(false);
    await db.rows(schoolEntity).put({ school_id: '1', school_name: 'Old Name' });
    await db.rows(studentEntity).bulkPut([
      { student_id: '1', student_name: 'Ana', school_id: '1', school_name: 'Old Name', status: 'Enabled' },
      { student_id: '2', student_name: 'Zoë', school_id: '', school_name: '', status: 'Enabled' },
    ]);
    const engine = new ListEngine(db, specs);
    try {
      const found = async (search: string) => (await engine.page(studentEntity.name, { search }, true)).keys;
      expect(await found('old')).toEqual(['1']);
      expect(await found('zoe')).toEqual(['2']);
      await db.rows(schoolEntity).put({ school_id: '1', school_name: 'Zêta Academy' });
      expect(await found('zeta')).toEqual(['1']);
      expect(await found('old')).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('a page joins its parents’ current names from the loaded indexes, and reads those not loaded', async () => {
    await db.rows(schoolEntity).put({ school_id: '1', school_name: 'Old Name' });
    await db.rows(studentEntity).bulkPut([
      { student_id: '1', student_name: 'Ana', school_id: '1', school_name: 'Copied Name', status: 'Enabled' },
      { student_id: '2', student_name: 'Zoë', school_id: '9', school_name: 'Not Here', status: 'Enabled' },
    ]);
    const engine = new ListEngine(db, engineSpecs(entities));
    try {
      const shown = async () => {
        const answer = await engine.page(studentEntity.name, {}, true);
        const page = await shownPage(db, studentEntity, answer, (p) => engine.loadedTitles(p));
        return page.rows.map((r) => r.school_name);
      };
      // Before the school's index has its titles, the names are read from the store.
      expect(engine.loadedTitles(schoolEntity.name)).toBeUndefined();
      expect(await shown()).toEqual(['Old Name', 'Not Here']);
      await engine.page(schoolEntity.name, { sort: { field: 'school_name', dir: 'asc' } }, true);
      expect(engine.loadedTitles(schoolEntity.name)?.get('1')).toBe('Old Name');
      await db.rows(schoolEntity).put({ school_id: '1', school_name: 'Zêta Academy' });
      // From memory: the renamed school, and a school not on this device keeps the row's copy.
      expect(await shown()).toEqual(['Zêta Academy', 'Not Here']);
      // Names handed over are used as they are: nothing is read for them.
      const answer = await engine.page(studentEntity.name, {}, true);
      const handed = await shownPage(db, studentEntity, answer, () => new Map([['1', 'Handed Over']]));
      expect(handed.rows.map((r) => r.school_name)).toEqual(['Handed Over', 'Not Here']);
    } finally {
      engine.close();
    }
  });

  it('finds substrings whatever their case and accents, and counts them over all pages', async () => {
    await classes({ '1': 'José María', '2': 'JOSEPH', '3': 'Ana', '4': 'Mariana', '5': 'jose' });
    expect(await names({ search: 'jose' })).toEqual(['José María', 'JOSEPH', 'jose']);
    expect(await names({ search: 'JOSÉ' })).toEqual(['José María', 'JOSEPH', 'jose']);
    expect(await names({ search: '  maria ' })).toEqual(['José María', 'Mariana']);
    const page = await listRows(db, classEntity, { search: 'a', pageSize: 2, page: 2 });
    expect(page.rows.map((r) => r.class_name)).toEqual(['Mariana']);
    expect({ total: page.total, page: page.page }).toEqual({ total: 3, page: 2 });
  });

  it('combines a filter with a search, and a page past the end shows the last', async () => {
    const teacher = (id: string, name: string, status: string) => ({
      teacher_id: id,
      teacher_name: name,
      status,
    });
    await db
      .rows(teacherEntity)
      .bulkPut([
        teacher('1', 'Ravi', 'Enabled'),
        teacher('2', 'Rani', 'Disabled'),
        teacher('3', 'Ravindra', 'Disabled'),
        teacher('4', 'Asha', 'Disabled'),
      ]);
    const q = { where: { status: 'Disabled' }, search: 'ra', pageSize: 1, page: 9 };
    const page = await listRows(db, teacherEntity, q);
    expect(page.rows.map((r) => r.teacher_name)).toEqual(['Ravindra']);
    expect({ total: page.total, page: page.page }).toEqual({ total: 2, page: 2 });
  });
});

describe('the pagination’s window', () => {
  it('shows the first and last page and two on each side of the current, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(1, 10_000)).toEqual([1, 2, 3, 4, 5, null, 10_000]);
    expect(pageWindow(5000, 10_000)).toEqual([1, null, 4998, 4999, 5000, 5001, 5002, null, 10_000]);
    expect(pageWindow(10_000, 10_000)).toEqual([1, null, 9996, 9997, 9998, 9999, 10_000]);
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, 6, null, 10]);
  });
});

describe('a list’s stale queries', () => {
  const shown = (search = ''): ShownPage => ({
    keys: [search],
    total: 1,
    page: 1,
    pageSize: 10,
    rows: [],
    pending: [],
    choices: [],
  });

  it('are never run when a newer one came before their turn, and never posted when it came while they ran', async () => {
    const asked: string[] = [];
    const running: { search: string; done: () => void }[] = [];
    const posted: FromWorker[] = [];
    const watches = new PageWatches(
      (_entity, query) => {
        asked.push(query.search ?? '');
        return new Promise((resolve) =>
          running.push({ search: query.search ?? '', done: () => resolve(shown(query.search)) }),
        );
      },
      (m) => posted.push(m),
    );
    watches.watch(1, 1, 'class', { search: 'a' });
    watches.watch(1, 2, 'class', { search: 'ab' });
    watches.watch(1, 3, 'class', { search: 'abc' });
    // 'a' runs; 'ab' is replaced by 'abc' before its turn.
    running[0].done();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['a', 'abc']);
    watches.watch(1, 4, 'class', { search: 'abcd' });
    running[1].done();
    await new Promise((r) => setTimeout(r, 0));
    running[2].done();
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['a', 'abc', 'abcd']);
    expect(posted).toEqual([{ type: 'page', id: 1, seq: 4, page: shown('abcd') }]);
  });

  it('a change of the rows while a query runs makes the list answer again', async () => {
    const posted: FromWorker[] = [];
    let finish = () => {};
    let calls = 0;
    const watches = new PageWatches(
      () => {
        calls += 1;
        return calls === 1
          ? new Promise((resolve) => (finish = () => resolve(shown('old'))))
          : Promise.resolve(shown('new'));
      },
      (m) => posted.push(m),
    );
    watches.watch(7, 1, 'class', {});
    watches.refresh(new Set(['class']));
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(posted.map((m) => (m.type === 'page' ? m.page.keys[0] : m.type))).toEqual(['old', 'new']);
  });
});
