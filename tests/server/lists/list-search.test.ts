/**
 * Searched and deep list pages (server/entities/list.ts, list-page.ts) after writes of every
 * shape, on whichever engine the project runs (PGlite here, PostgreSQL in
 * `npm run test:postgres`): after inserts, updates and deletes of one row and of many, in
 * single statements and in batches, searched totals and pages (accents, case, LIKE's own
 * characters, filters beside) equal a plain ILIKE scan and the bare list, every searched table's
 * totals equal a scan, and deep pages in either direction equal the bare list's slice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { entities, studentEntity, teacherEntity } from '../../../src/contract/entities';
import { splitPath } from '../../../src/contract/entity';
import { startSeededServer } from '../../helpers/scale-server';
import { api, signIn, type TestServer } from '../../helpers/server';

const STUDENTS = 3_200;
let server: TestServer;
let client: ReturnType<typeof api>;
const S = studentEntity.api;
type Student = { student_id: number; student_name: string };

beforeAll(async () => {
  server = await startSeededServer(STUDENTS);
  client = api(server.apiRoot, await signIn(server.apiRoot));
  // Writes of every shape after the seed: many rows and one, names changed and not, deletes
  // that empty part of a bucket of keys.
  await server.query(
    `INSERT INTO students (student_name, email, password, contact_no, school_id, country)
     SELECT 'ÉLODIE ' || upper(student_name), 'copy.' || email, password, contact_no, school_id, country
       FROM students WHERE student_id % 37 = 0`,
  );
  await server.query("UPDATE students SET student_name = 'Ærø Ñoño 100%_\\' WHERE student_id % 41 = 0");
  await server.query("UPDATE students SET city = 'Elsewhere' WHERE student_id % 43 = 0");
  // Letters outside ASCII that lower() may turn into ASCII ones: İ into i, the Kelvin sign into k.
  await server.query(
    "UPDATE students SET student_name = 'İLKER ' || chr(8490) || 'APOOR' WHERE student_id % 47 = 0",
  );
  await server.query('UPDATE students SET student_name = lower(student_name) WHERE student_id = 12');
  await server.query('DELETE FROM students WHERE student_id BETWEEN 700 AND 1100 OR student_id % 53 = 0');
  await client.post(S.remove!, { student_id: 1500 });
  return () => server.close();
}, 240_000);

// The HTTP tests come first and the long scans of the database last: an HTTP connection left
// idle longer than the server's keep-alive (5 s) may be reset as the next request reuses it.

/** The rows whose search texts hold `text`, case aside, counted by a plain ILIKE scan. */
async function scanCount(table: string, field: string, text: string): Promise<number> {
  const like = `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  const [{ n }] = await server.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${field}::text ILIKE $1 ESCAPE '\\'`,
    [like],
  );
  return n;
}

describe('searched pages', () => {
  it('give every short search its total and its pages, equal to a scan and to the bare list', async () => {
    const searches = [
      'a',
      'A',
      'an',
      'AN',
      'ana',
      'é',
      'É',
      'ÉLO',
      'ø',
      'æ',
      'ñoñ',
      '%',
      '_',
      '\\',
      '0%_',
      'o’',
      'qqq',
      'i',
      'k',
      'ik',
      'İ',
      'Ik',
      'z%',
    ];
    for (const search of searches) {
      const bare = (await client.get(S.list, { search })).body.students.map((s: Student) => s.student_id);
      const expected = await scanCount('students', 'student_name', search);
      expect(bare.length, search).toBe(expected);
      const pages = Math.max(1, Math.ceil(expected / 100));
      // First, middle, last and past-the-end pages of 100 (the last ones read backwards).
      for (const page of [...new Set([1, Math.ceil(pages / 2), Math.max(1, pages - 1), pages, pages + 1])]) {
        const { body } = await client.get(S.list, {
          search,
          page: String(page),
          limit: '100',
          sortOption: '',
        });
        expect(body.total, `${search} page ${page}`).toBe(expected);
        expect(
          body.students.map((s: Student) => s.student_id),
          `${search} page ${page}`,
        ).toEqual(bare.slice((page - 1) * 100, page * 100));
      }
    }
  });

  it('give pages deep inside a short search, either way, the bare list in order, before and after a batch of writes', async () => {
    /** Every page asked of `search` in both key orders equals the bare list's slice. */
    const pagesMatchBare = async (label: string) => {
      for (const search of ['a', 'e', 'an', 'É']) {
        for (const sortOption of ['', 'student_id_desc']) {
          const bare = (await client.get(S.list, { search, sortOption })).body.students.map(
            (s: Student) => s.student_id,
          );
          expect(bare.length, search).toBe(await scanCount('students', 'student_name', search));
          const last = Math.max(1, Math.ceil(bare.length / 10));
          const mid = Math.ceil(last / 2);
          for (const page of new Set([1, 103, 104, mid - 1, mid, mid + 1, last - 103, last - 1, last])) {
            if (page < 1) continue;
            const { body } = await client.get(S.list, {
              search,
              sortOption,
              page: String(page),
              limit: '10',
            });
            const what = `${label} '${search}' ${sortOption} page ${page}`;
            expect(body.total, what).toBe(bare.length);
            expect(
              body.students.map((s: Student) => s.student_id),
              what,
            ).toEqual(bare.slice((page - 1) * 10, page * 10));
          }
        }
      }
    };
    await pagesMatchBare('seeded');
    // Batches as the outbox sends them: one transaction of many single-row statements (each a
    // trigger run), names added, renamed (some to themselves), deleted, across buckets.
    await server.query(`DO $$
      DECLARE i int;
      BEGIN
        FOR i IN 1..60 LOOP
          INSERT INTO students (student_name, email, password, contact_no, school_id, country)
          SELECT 'Batch Añadida ' || i, 'batch' || i || '.' || email, password, contact_no, school_id, country
            FROM students ORDER BY student_id LIMIT 1;
          UPDATE students SET student_name = 'Renamed Éa ' || i WHERE student_id = i * 47;
          UPDATE students SET student_name = student_name WHERE student_id = i * 29;
          DELETE FROM students WHERE student_id = i * 51 + 3;
        END LOOP;
      END $$`);
    await pagesMatchBare('after a batch');
  });

  it('leave a search with a filter beside it, or another order, its meaning', async () => {
    const T = teacherEntity.api;
    const ids = (rows: { teacher_id: number }[]) => rows.map((t) => t.teacher_id);
    const queries: Record<string, string>[] = [
      { search: 'an', status: 'Disabled' },
      { search: 'a', status: 'Enabled', sortOption: 'teacher_name_desc' },
      { search: 'É', sortOption: 'city_asc' },
    ];
    for (const query of queries) {
      const bare = ids((await client.get(T.list, query)).body.teachers);
      expect(bare.length, JSON.stringify(query)).toBeGreaterThan(0);
      const pages: number[] = [];
      let total = -1;
      for (let page = 1; page <= Math.ceil(bare.length / 25); page++) {
        const { body } = await client.get(T.list, { ...query, page: String(page), limit: '25' });
        pages.push(...ids(body.teachers));
        total = body.total;
      }
      expect(pages, JSON.stringify(query)).toEqual(bare);
      expect(total).toBe(bare.length);
    }
  });
});

describe('pages of the whole table', () => {
  it('give pages deep in the key order, either way, the bare list in order', async () => {
    for (const sortOption of ['', 'student_id_desc']) {
      const bare = (await client.get(S.list, { sortOption })).body.students.map((s: Student) => s.student_id);
      const last = Math.ceil(bare.length / 10);
      for (const page of [
        1,
        2,
        103,
        104,
        Math.ceil(last / 2),
        Math.ceil(last / 2) + 1,
        last - 103,
        last - 1,
        last,
      ]) {
        const { body } = await client.get(S.list, { sortOption, page: String(page), limit: '10' });
        expect(body.total).toBe(bare.length);
        expect(
          body.students.map((s: Student) => s.student_id),
          `${sortOption} page ${page}`,
        ).toEqual(bare.slice((page - 1) * 10, page * 10));
      }
    }
  });
});

describe('searches of every searched table, against a scan of the rows', () => {
  it('total exactly the rows a scan finds holding the text, for texts of one to four characters', async () => {
    for (const e of entities.filter((x) => x.api.list && x.list.search.length > 0)) {
      const [field] = e.list.search;
      const texts = await server.query<{ t: string | null }>(
        `SELECT lower(${field}::text) AS t FROM ${e.table} ORDER BY 1 LIMIT 50`,
      );
      // Pieces of the table's own texts (some match, in upper case too), and texts nothing holds.
      const searches = new Set(['a', 'É', 'zz', '%', 'qqqq']);
      for (const { t } of texts.filter((_, i) => i % 10 === 0)) {
        const chars = [...(t ?? '')];
        for (const l of [1, 2, 3, 4])
          if (chars.length >= l) searches.add(chars.slice(0, l).join('').toUpperCase());
      }
      for (const search of searches) {
        const { path, query } = splitPath(e.api.list!);
        const { body } = await client.get(path, { ...query, search, page: '1', limit: '5' });
        expect(body.total, `${e.table} '${search}'`).toBe(await scanCount(e.table, field, search));
      }
    }
  });
});
