/**
 * Lists at scale, on whichever engine the project runs (PGlite here,
 * PostgreSQL in `npm run test:postgres`): the scale seed fills the database, a delta pull sees
 * every seeded row; list pages, searched or not, forwards or read backwards from the end, are
 * exactly the rows of the bare list in its order, with the right total; every list's total
 * equals its table's count through writes; and every searched column has its trigram index
 * and its index for short searches.
 * Small N: the figures at 100,000 rows are the benchmark's (bench/server-lists.mjs).
 */
import { City } from 'country-state-city';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../server/auth/password';
import { SEED_PASSWORD } from '../../../server/seed/scale';
import { entities, studentEntity, teacherEntity } from '../../../src/contract/entities';
import { splitPath } from '../../../src/contract/entity';
import { startSeededServer } from '../../helpers/scale-server';
import { api, signIn, type TestServer } from '../../helpers/server';

const STUDENTS = 240;
let server: TestServer;
let client: ReturnType<typeof api>;
const S = studentEntity.api;

type Student = { student_id: number; student_name: string; school_id: number; status: string };

beforeAll(async () => {
  server = await startSeededServer(STUDENTS);
  client = api(server.apiRoot, await signIn(server.apiRoot));
  return () => server.close();
}, 120_000);

describe('the scale seed', () => {
  it('adds the students with schools and teachers, and a delta pull sees every one', async () => {
    const [{ schools, teachers }] = await server.query<{ schools: number; teachers: number }>(
      "SELECT (SELECT count(*)::int FROM schools WHERE email LIKE '%@school%.example') AS schools, (SELECT count(*)::int FROM teachers WHERE email LIKE '%@teachers.example') AS teachers",
    );
    expect(schools).toBe(1);
    expect(teachers).toBe(10);
    const seen: Student[] = [];
    let since = '0';
    for (;;) {
      const { body } = await client.get(S.list, { since, sinceLimit: 100 });
      seen.push(...body.students);
      since = body.cursor;
      if (!body.more) break;
    }
    const seeded = seen.filter((s) => /@students\.example$/.test((s as unknown as { email: string }).email));
    expect(seeded).toHaveLength(STUDENTS);
    expect(new Set(seen.map((s) => s.student_id)).size).toBe(seen.length);
    // Some books assigned, travelling with their owners.
    expect(seeded.some((s) => (s as unknown as { books: number[] }).books.length > 0)).toBe(true);
  });

  it('gives realistic rows: accented names, real places, both statuses, one shared password hash', async () => {
    const rows = await server.query<{
      student_name: string;
      country: string;
      state: string;
      city: string;
      status: string;
      password: string;
    }>(
      "SELECT student_name, country, state, city, status, password FROM students WHERE email LIKE '%@students.example'",
    );
    expect(rows.some((r) => /\P{ASCII}/u.test(r.student_name))).toBe(true);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Enabled', 'Disabled']));
    for (const r of rows.slice(0, 20))
      expect(City.getCitiesOfState(r.country, r.state).map((c) => c.name)).toContain(r.city);
    expect(new Set(rows.map((r) => r.password)).size).toBe(1);
    expect(await verifyPassword(SEED_PASSWORD, rows[0].password)).toBe(true);
  });
});

describe('list pages at scale', () => {
  /** Every row of the bare list (the order and search as before), its ids. */
  async function bare(query: Record<string, string> = {}) {
    const { body } = await client.get(S.list, query);
    return (body.students as Student[]).map((s) => s.student_id);
  }

  /** Every page of size `limit`, concatenated, and each page's total. */
  async function paged(limit: number, query: Record<string, string> = {}) {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const { body } = await client.get(S.list, { ...query, page: String(page), limit: String(limit) });
      totals.add(body.total);
      const rows = body.students as Student[];
      expect(rows.length).toBeLessThanOrEqual(limit);
      ids.push(...rows.map((s) => s.student_id));
      if (rows.length < limit) return { ids, totals: [...totals] };
    }
  }

  it('pages are the bare list in order, forwards and from the end, with the table total', async () => {
    const all = await bare();
    expect(all.length).toBe(STUDENTS + 3);
    for (const limit of [7, 10, 100]) {
      const { ids, totals } = await paged(limit);
      expect(ids).toEqual(all);
      expect(totals).toEqual([all.length]);
    }
    // The last page, and a page past it.
    const last = Math.ceil(all.length / 10);
    expect(
      (await client.get(S.list, { page: String(last), limit: '10' })).body.students.map(
        (s: Student) => s.student_id,
      ),
    ).toEqual(all.slice((last - 1) * 10));
    expect((await client.get(S.list, { page: String(last + 5), limit: '10' })).body).toMatchObject({
      students: [],
      total: all.length,
    });
  });

  it('searched pages are the bare list searched, for any length of text, with their total', async () => {
    for (const search of ['a', 'an', 'ana', 'gupta', 'ZOË', 'ø', 'o’b', '%', 'nobody-at-all']) {
      const all = await bare({ search });
      const { ids, totals } = await paged(10, { search, sortOption: '' });
      expect(ids, search).toEqual(all);
      expect(totals, search).toEqual([all.length]);
    }
    // Case-insensitive substring, as before.
    const names = (await client.get(S.list, { search: 'GUP' })).body.students.map(
      (s: Student) => s.student_name,
    );
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n.toLowerCase()).toContain('gup');
  });

  it('other orders and filters page the same way, read backwards past the middle too', async () => {
    const T = teacherEntity.api;
    const teachers = async (query: Record<string, string>) =>
      (await client.get(T.list, query)).body.teachers.map((t: { teacher_id: number }) => t.teacher_id);
    const queries: Record<string, string>[] = [
      { sortOption: 'teacher_name_desc' },
      { sortOption: 'city_asc' },
      { status: 'Disabled' },
      { status: 'Enabled', search: 'a', sortOption: 'teacher_name_asc' },
    ];
    for (const query of queries) {
      const all = await teachers(query);
      const pages: number[] = [];
      for (let page = 1; page <= Math.ceil(all.length / 3) + 1; page++)
        pages.push(...(await teachers({ ...query, page: String(page), limit: '3' })));
      expect(pages, JSON.stringify(query)).toEqual(all);
    }
  });

  it('gives every list the total of its table, through adds and deletes', async () => {
    const totals = async () => {
      const out: Record<string, [number, number]> = {};
      for (const e of entities.filter((x) => x.api.list)) {
        const { path, query } = splitPath(e.api.list!);
        const { body } = await client.get(path, { ...query, page: '1', limit: '1' });
        const [{ n }] = await server.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${e.table}`);
        out[e.table] = [body.total, n];
      }
      return out;
    };
    const expectEqual = async () => {
      for (const [table, [listed, counted]] of Object.entries(await totals()))
        expect(listed, table).toBe(counted);
    };
    await expectEqual();
    await client.post(studentEntity.api.remove!, { student_id: 5 });
    await server.query('DELETE FROM students WHERE student_id IN (6, 7)');
    await server.query(
      `INSERT INTO students (student_name, email, password, contact_no, school_id, country)
       SELECT 'Copy ' || student_name, 'copy.' || email, password, contact_no, school_id, country
         FROM students WHERE student_id % 3 = 0`,
    );
    await expectEqual();
    const [{ n }] = await server.query<{ n: number }>('SELECT count(*)::int AS n FROM students');
    expect((await client.get(S.list, { page: '1', limit: '1' })).body.total).toBe(n);
  });

  it('rows read in bulk (bare list, delta) are exactly the rows of a page: dates, names, sets, no secrets', async () => {
    for (const entity of [teacherEntity, studentEntity]) {
      const field = entity.api.listField!;
      const byKey = (rows: Record<string, unknown>[]) =>
        new Map(rows.map((r) => [r[entity.key], r] as const));
      const page = (await client.get(entity.api.list!, { page: '1', limit: '25' })).body[field];
      const bare = byKey((await client.get(entity.api.list!)).body[field]);
      const delta = byKey((await client.get(entity.api.list!, { since: 0 })).body[field]);
      expect(page.length).toBeGreaterThan(10);
      // A delta is our app's: it goes without the original's names of a set (set-names.ts).
      const names = Object.values(entity.relations ?? {}).flatMap((r) => r.namesColumn ?? []);
      for (const row of page) {
        expect(bare.get(row[entity.key])).toEqual(row);
        const { ...unnamed } = row;
        for (const name of names) delete unnamed[name];
        expect(delta.get(row[entity.key])).toEqual(unnamed);
        expect(row).not.toHaveProperty('password');
      }
    }
    // A teacher's date as the drivers' Date objects give it: UTC, milliseconds.
    const [teacher] = (await client.get(teacherEntity.api.list!, { page: '1', limit: '1' })).body.teachers;
    expect(teacher.date_added).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('has a trigram index on every column a list searches', async () => {
    const indexed = await server.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%'",
    );
    for (const e of entities.filter((x) => x.api.list))
      for (const field of e.list.search)
        expect(
          indexed.some((i) => i.indexdef.includes(`ON public.${e.table} USING gin (${field} gin_trgm_ops)`)),
          `${e.table}.${field} is searched by its list but has no trigram index: add ` +
            `\`CREATE INDEX ${e.table}_${field}_search ON ${e.table} USING gin (${field} gin_trgm_ops);\` ` +
            `to the table's migration in server/migrations/`,
        ).toBe(true);
  });

  it('has a (key) INCLUDE (column) index for every column a list searches (short searches)', async () => {
    const indexed = await server.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '% INCLUDE (%'",
    );
    for (const e of entities.filter((x) => x.api.list))
      for (const field of e.list.search.filter((f) => f !== e.key))
        expect(
          indexed.some((i) =>
            i.indexdef.includes(`ON public.${e.table} USING btree (${e.key}) INCLUDE (${field})`),
          ),
          `${e.table}.${field} is searched by its list but has no index for short searches: add ` +
            `\`CREATE INDEX ${e.table}_search_keys ON ${e.table} (${e.key}) INCLUDE (${field});\` ` +
            `to the table's migration in server/migrations/`,
        ).toBe(true);
  });
});
