/**
 * The list index and engine against the plain truth, on fake-indexeddb: after random
 * sequences of everything that changes rows (mutate's add, update, delete, set and relate;
 * pulled deltas and whole lists; server ids replacing temporary ones, with the children that
 * name them; discards; a book's delete taking it out of students' sets), for students and the
 * schools whose names their lists show:
 *
 * - the stored chunks hold exactly the projection of every row (and the head lists exactly the
 *   chunks there are);
 * - the engine, kept current incrementally across the whole sequence, answers random queries
 *   (accent- and case-insensitive search, status filter, every sortable field both ways, pages
 *   and page sizes; a record's position) exactly as a scan, filter and sort of the tables.
 *
 * Runs: LIST_PROPERTY_RUNS (default 10 sequences); a failure prints fast-check's seed and path
 * (LIST_PROPERTY_SEED=<seed> reproduces it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookEntity, entities, schoolEntity, studentEntity } from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import type { LocalDb, Row } from '../../../src/db/database';
import { ListEngine, type PageQuery } from '../../../src/db/list-engine/engine';
import { keyOrderPage } from '../../../src/db/list-engine/key-page';
import { compareFor } from '../../../src/db/list-engine/order';
import { type EngineSpec, engineSpecs } from '../../../src/db/list-engine/spec';
import { CHUNK_STORE, chunkOf, fieldsSignature } from '../../../src/db/list-index/chunk';
import { foldText } from '../../../src/db/list-index/fold-text';
import { projectedValue, projectRow } from '../../../src/db/list-index/projection';
import { readTableIndex } from '../../../src/db/list-index/read';
import { mutate } from '../../../src/db/mutate';
import { openLocalDb } from '../../../src/db/open';
import { discardEntry } from '../../../src/db/outbox/discard';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { applyPulled } from '../../../src/sync/pull/pull-apply';

const RUNS = Number(process.env.LIST_PROPERTY_RUNS ?? 10);
const SEED = process.env.LIST_PROPERTY_SEED ? Number(process.env.LIST_PROPERTY_SEED) : undefined;
const specs = engineSpecs(entities);
const spec = (e: EntityDescription) => specs.get(e.name) as EngineSpec;

// Names that test folding and collation: accents, case, numbers inside text, ties at base strength.
const NAMES = ['José', 'jose', 'JOSÉ', 'Zoë', 'Zoe', 'Ana', 'ana 2', 'Ana 10', 'Émile', "O'Brien", 'Ærø', ''];
const NEEDLES = ['', 'jose', 'JOSÉ', 'zoe', 'an', 'a', '1', "o'b", 'é', 'mile', 'xyz'];
const SERVER_IDS = ['1', '2', '3', '9', '10', '11', '100', '600', '1024', '5000'];

type Op =
  | { t: 'addStudent'; name: string; school: number; status: boolean }
  | { t: 'updateStudent'; i: number; name: string; school: number }
  | { t: 'deleteStudent'; i: number }
  | { t: 'toggle'; i: number }
  | { t: 'relate'; i: number; books: number[] }
  | { t: 'addSchool'; name: string }
  | { t: 'renameSchool'; i: number; name: string }
  | { t: 'addBook' }
  | { t: 'deleteBook'; i: number }
  | { t: 'pull'; schools: boolean; ids: string[]; names: string[]; deleted: string[]; whole: boolean }
  | { t: 'rekey'; i: number }
  | { t: 'discard'; i: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('addStudent' as const),
      name: fc.constantFrom(...NAMES),
      school: fc.nat(9),
      status: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('updateStudent' as const),
      i: fc.nat(30),
      name: fc.constantFrom(...NAMES),
      school: fc.nat(9),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deleteStudent' as const), i: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('toggle' as const), i: fc.nat(30) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('relate' as const),
      i: fc.nat(30),
      books: fc.array(fc.nat(4), { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('addSchool' as const), name: fc.constantFrom(...NAMES) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('renameSchool' as const),
      i: fc.nat(9),
      name: fc.constantFrom(...NAMES),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'addBook' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deleteBook' as const), i: fc.nat(4) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('pull' as const),
      schools: fc.boolean(),
      ids: fc.uniqueArray(fc.constantFrom(...SERVER_IDS), { maxLength: 6 }),
      names: fc.array(fc.constantFrom(...NAMES), { minLength: 6, maxLength: 6 }),
      deleted: fc.uniqueArray(fc.constantFrom(...SERVER_IDS), { maxLength: 3 }),
      whole: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('rekey' as const), i: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('discard' as const), i: fc.nat(10) }) },
);

const query: fc.Arbitrary<PageQuery & { key: number }> = fc.record({
  search: fc.constantFrom(...NEEDLES),
  page: fc.integer({ min: 1, max: 4 }),
  pageSize: fc.constantFrom(2, 3, 10),
  sort: fc.record({
    field: fc.constantFrom(...Object.keys(spec(studentEntity).orders)),
    dir: fc.constantFrom('asc' as const, 'desc' as const),
  }),
  where: fc.constantFrom<Record<string, string>>({}, { status: 'Enabled' }, { status: 'Disabled' }),
  key: fc.nat(30),
});

const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length ? list[i % list.length] : undefined;

async function apply(db: LocalDb, o: Op, serverIds: { next: number }): Promise<void> {
  const students = (await db.rows(studentEntity).toCollection().primaryKeys()) as string[];
  const schools = (await db.rows(schoolEntity).toCollection().primaryKeys()) as string[];
  const books = (await db.rows(bookEntity).toCollection().primaryKeys()) as string[];
  const student = 'i' in o ? pick(students, o.i) : undefined;
  try {
    switch (o.t) {
      case 'addStudent':
        await mutate(db, {
          op: 'add',
          entity: studentEntity,
          values: {
            student_name: o.name,
            school_id: pick(schools, o.school) ?? '',
            status: o.status ? 'Enabled' : 'Disabled',
          },
        });
        return;
      case 'updateStudent':
        if (student)
          await mutate(db, {
            op: 'update',
            entity: studentEntity,
            key: student,
            values: { student_name: o.name, school_id: pick(schools, o.school) ?? '' },
          });
        return;
      case 'deleteStudent':
        if (student) await mutate(db, { op: 'delete', entity: studentEntity, key: student });
        return;
      case 'toggle': {
        if (!student) return;
        const row = await db.rows(studentEntity).get(student);
        const value = row?.status === 'Enabled' ? 'Disabled' : 'Enabled';
        await mutate(db, { op: 'set', entity: studentEntity, key: student, action: 'status', value });
        return;
      }
      case 'relate':
        if (student)
          await mutate(db, {
            op: 'relate',
            entity: studentEntity,
            key: student,
            relation: 'books',
            ids: o.books.map((b) => pick(books, b)).filter((b) => b !== undefined),
          });
        return;
      case 'addSchool':
        await mutate(db, { op: 'add', entity: schoolEntity, values: { school_name: o.name } });
        return;
      case 'renameSchool': {
        const school = pick(schools, o.i);
        if (school)
          await mutate(db, {
            op: 'update',
            entity: schoolEntity,
            key: school,
            values: { school_name: o.name },
          });
        return;
      }
      case 'addBook':
        await mutate(db, { op: 'add', entity: bookEntity, values: { book_name: `Book ${books.length}` } });
        return;
      case 'deleteBook': {
        const book = pick(books, o.i);
        if (book) await mutate(db, { op: 'delete', entity: bookEntity, key: book });
        return;
      }
      case 'pull': {
        const entity = o.schools ? schoolEntity : studentEntity;
        const rows: Row[] = o.ids.map((id, k) =>
          o.schools
            ? { school_id: id, school_name: o.names[k], status: 'Enabled' }
            : {
                student_id: id,
                student_name: o.names[k],
                school_id: pick(SERVER_IDS, k) ?? '',
                school_name: `Server's ${o.names[k]}`,
                status: k % 2 ? 'Enabled' : 'Disabled',
                email: `${o.names[k]}@x`,
                city: o.names[(k + 1) % 6],
              },
        );
        await applyPulled(db, entity, {
          rows,
          deleted: o.whole ? 'all-others' : o.deleted,
          cursor: o.whole ? null : '1',
        });
        return;
      }
      case 'rekey': {
        const adds = await db.outbox.filter((e) => e.op === 'add').toArray();
        const entry = pick(
          adds.filter((e) => e.entity !== bookEntity.name),
          o.i,
        );
        if (!entry) return;
        serverIds.next += 1;
        await applyServerIds(db, [
          { entity: entry.entity, tempId: entry.key, serverId: String(serverIds.next), seq: entry.seq },
        ]);
        return;
      }
      case 'discard': {
        const entry = pick(await db.outbox.toArray(), o.i);
        if (entry) await discardEntry(db, entry);
        return;
      }
    }
  } catch (error) {
    // A delete of a school that students still name is refused, as it should be.
    if (!(error instanceof Error) || !/cannot be deleted|not in the local store/.test(error.message))
      throw error;
  }
}

/**
 * The chunks hold exactly each row's projection; the head lists exactly the chunks there are,
 * with their sizes, and no column record is left of a chunk that is gone.
 */
async function expectIndexEqualsRows(db: LocalDb, entity: EntityDescription): Promise<void> {
  const projection = spec(entity).projection;
  const rows = await db.rows(entity).toArray();
  const { head, chunks } = await readTableIndex(db, entity.table, projection.fields);
  const indexed: Record<string, string[]> = {};
  for (const chunk of chunks) {
    chunk.keys.forEach((key, i) => {
      expect(chunkOf(key)).toBe(chunk.n);
      indexed[key] = chunk.cols.map((c) => c[i]);
    });
    expect(head?.sizes[chunk.n]).toBe(chunk.keys.length);
  }
  const expected = Object.fromEntries(
    rows.map((r) => [projectedValue(r[entity.key]), projectRow(projection, r)]),
  );
  expect(indexed).toEqual(expected);
  if (rows.length) expect(head?.fields).toBe(fieldsSignature(projection.key, projection.fields));
  const records = await db
    .table(CHUNK_STORE)
    .where('[table+col+n]')
    .between([entity.table], [entity.table, []])
    .count();
  expect(records).toBe(chunks.length * (projection.fields.length + 1));
}

/** A scan, filter and sort of the tables: what the engine must answer. */
async function scan(db: LocalDb, q: PageQuery) {
  const s = spec(studentEntity);
  const titles = new Map(
    (await db.rows(schoolEntity).toArray()).map((r) => [String(r.school_id), projectedValue(r.school_name)]),
  );
  const shown = (row: Row, field: string) =>
    field === 'school_name'
      ? (titles.get(projectedValue(row.school_id)) ?? projectedValue(row.school_name))
      : projectedValue(row[field]);
  const needle = foldText((q.search ?? '').trim());
  const sort = q.sort ?? s.defaultSort;
  const byKey = compareFor('number');
  const keyOrder = (a: Row, b: Row) => {
    const ka = projectedValue(a.student_id);
    const kb = projectedValue(b.student_id);
    return byKey(ka, kb) || (ka < kb ? -1 : ka > kb ? 1 : 0);
  };
  const compare = compareFor(s.orders[sort.field]);
  const rows = (await db.rows(studentEntity).toArray())
    .filter((r) => Object.entries(q.where ?? {}).every(([f, v]) => shown(r, f) === v))
    .filter((r) => !needle || foldText(shown(r, 'student_name')).includes(needle))
    .sort((a, b) => compare(shown(a, sort.field), shown(b, sort.field)) || keyOrder(a, b));
  if (sort.dir === 'desc') rows.reverse();
  return rows.map((r) => projectedValue(r.student_id));
}

describe('the list index and engine equal a scan of the rows, whatever changed them', () => {
  it('after random mutations, pulls, rekeys and discards', { timeout: 120_000 }, async () => {
    let run = 0;
    /** Pages the index answered in key order by itself (it may decline: before any write). */
    let quickAnswers = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, query), { minLength: 1, maxLength: 25 }), async (steps) => {
        const db = openLocalDb(`list-property-${++run}`);
        await db.open();
        const engine = new ListEngine(db, specs);
        const serverIds = { next: 10_000 };
        try {
          for (const [o, q] of steps) {
            await apply(db, o, serverIds);
            const expected = await scan(db, q);
            const size = q.pageSize ?? 10;
            const pages = Math.max(1, Math.ceil(expected.length / size));
            const page = Math.min(q.page ?? 1, pages);
            const answer = await engine.page(studentEntity.name, q, true);
            expect(answer).toEqual({
              keys: expected.slice((page - 1) * size, page * size),
              total: expected.length,
              page,
              pageSize: size,
            });
            const key = pick(expected, q.key);
            if (key) expect(await engine.position(studentEntity.name, q, key)).toBe(expected.indexOf(key));
            // Work on all of a query's rows (export, "select all N matching") reads its keys in slices.
            const from = Math.min(3, expected.length);
            expect(await engine.keys(studentEntity.name, q, from, 7)).toEqual({
              keys: expected.slice(from, from + 7),
              total: expected.length,
            });
            // Figures over a query's rows (the dashboard) count them by a projected field.
            const schoolOf = new Map(
              (await db.rows(studentEntity).toArray()).map((r) => [
                projectedValue(r.student_id),
                projectedValue(r.school_id),
              ]),
            );
            const bySchool = new Map<string, number>();
            for (const k of expected) {
              const school = schoolOf.get(k) ?? '';
              bySchool.set(school, (bySchool.get(school) ?? 0) + 1);
            }
            expect(await engine.counts(studentEntity.name, q, 'school_id')).toEqual(bySchool);
            // The page in key order straight from the index (a list's first paint) is the engine's.
            const dir = q.sort?.dir ?? 'asc';
            const quick = await keyOrderPage(db, spec(studentEntity).projection, {
              page: q.page,
              pageSize: size,
              dir,
            });
            if (quick) {
              quickAnswers += 1;
              const byKey = { page: q.page, pageSize: size, sort: { field: 'student_id', dir } };
              expect(quick).toEqual(await engine.page(studentEntity.name, byKey));
            }
          }
          await expectIndexEqualsRows(db, studentEntity);
          await expectIndexEqualsRows(db, schoolEntity);
          await expectIndexEqualsRows(db, bookEntity);
        } finally {
          engine.close();
          db.close();
          await db.delete();
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(quickAnswers).toBeGreaterThan(0);
  });
});
