/**
 * Short searches (migrations 015, 016): the totals of one- to three-character searches come
 * from the maintained search grams (merged counts per bucket of keys plus the log of texts
 * written since the last merge), and pages deep in the key order, searched or not, start from
 * their bucket. On
 * whichever engine the project runs (PGlite here, PostgreSQL in `npm run test:postgres`), after
 * inserts, updates and deletes of one row and of many: the grams equal a scan of the rows, the
 * buckets equal a count, searched totals and pages (accents, case, LIKE's own characters,
 * filters beside) equal a plain ILIKE scan and the bare list, and deep pages in either
 * direction equal the bare list's slice. Enough students that a middle page skips more than a
 * bucket of keys (the pages asked are chosen so: more than 1,024 rows from the nearer end).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MERGE_AT } from '../../server/entities/gram-log';
import { entities, studentEntity, teacherEntity } from '../../src/contract/entities';
import { startSeededServer } from '../helpers/scale-server';
import { api, signIn, type TestServer } from '../helpers/server';

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

describe('search grams', () => {
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

  it('give pages deep inside a short search, either way, the bare list in order, the log merged or not', async () => {
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
    const logged = async () =>
      (
        await server.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM search_gram_log WHERE entity_table = 'students'",
        )
      )[0].n;
    // The setup's writes (705 logged rows) are merged by a search that finds more than
    // MERGE_AT, after its reply (or were, by the searches before).
    await client.get(S.list, { search: 'a', page: '1', limit: '10' });
    await expect.poll(logged).toBeLessThanOrEqual(MERGE_AT);
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
    expect(await logged()).toBeGreaterThan(0);
    await pagesMatchBare('logged');
    await server.query("SELECT merge_search_grams('students')");
    expect(await logged()).toBe(0);
    await pagesMatchBare('merged');
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

describe('key buckets', () => {
  it('count every entity table keyed by an id, bucket by bucket', async () => {
    for (const e of entities.filter((x) => !(x.key in x.fields))) {
      const counted = await server.query<{ bucket: number; n: number }>(
        'SELECT bucket, sum(n)::int AS n FROM key_buckets WHERE entity_table = $1 GROUP BY bucket HAVING sum(n) <> 0 ORDER BY bucket',
        [e.table],
      );
      const actual = await server.query<{ bucket: number; n: number }>(
        `SELECT ${e.key} / 1024 AS bucket, count(*)::int AS n FROM ${e.table} GROUP BY 1 ORDER BY 1`,
      );
      expect(counted, e.table).toEqual(actual);
    }
  });

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

  it('compact the kept changes when they are many, keeping the counts', async () => {
    const sums = async () =>
      server.query<{ grams: number; keys: number }>(
        `SELECT (SELECT sum(n)::int FROM search_grams WHERE entity_table = 'students' AND gram = 'a') AS grams,
                (SELECT sum(n)::int FROM key_buckets WHERE entity_table = 'students') AS keys`,
      );
    // The log merged, so that the read compacts (a long log is merged instead).
    await server.query("SELECT merge_search_grams('students')");
    // Changes as merges insert them, one row each, adding up to nothing.
    await server.query(
      `INSERT INTO search_grams (entity_table, gram, n)
       SELECT 'students', 'a', CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END FROM generate_series(1, 70) AS g;
       INSERT INTO key_buckets (entity_table, bucket, n)
       SELECT 'students', 1, CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END FROM generate_series(1, 70) AS g`,
    );
    const before = await sums();
    await client.get(S.list, { search: 'a', page: '1', limit: '10' });
    // More than 1,024 rows from either end: the buckets are read.
    await client.get(S.list, { page: '110', limit: '10' });
    const most = async () =>
      (
        await server.query<{ n: number }>(
          `SELECT greatest(
             (SELECT max(c) FROM (SELECT count(*) AS c FROM search_grams
                                   WHERE entity_table = 'students' AND gram = 'a' GROUP BY bucket) x),
             (SELECT max(c) FROM (SELECT count(*) AS c FROM key_buckets WHERE entity_table = 'students' GROUP BY bucket) x))::int AS n`,
        )
      )[0].n;
    await expect.poll(most).toBe(1);
    expect(await sums()).toEqual(before);
  });
});

describe('search grams, against a scan of the rows', () => {
  it('count, for every searched table, exactly the rows a scan finds holding each gram', async () => {
    for (const e of entities.filter((x) => x.api.list && x.list.search.length > 0)) {
      const [field] = e.list.search;
      // The log holds what was written since the last merge (the HTTP tests above read it).
      await server.query('SELECT merge_search_grams($1)', [e.table]);
      const counted = new Map(
        (
          await server.query<{ gram: string; n: number }>(
            'SELECT gram, sum(n)::int AS n FROM search_grams WHERE entity_table = $1 GROUP BY gram HAVING sum(n) <> 0',
            [e.table],
          )
        ).map((r) => [r.gram, r.n]),
      );
      // Every gram of every row (the database's lower case, cut by code points) is counted...
      const texts = await server.query<{ t: string | null }>(
        `SELECT lower(${field}::text) AS t FROM ${e.table}`,
      );
      const present = new Set<string>();
      for (const { t } of texts) {
        const chars = [...(t ?? '')];
        for (let l = 1; l <= 3; l++)
          for (let i = 0; i + l <= chars.length; i++) present.add(chars.slice(i, i + l).join(''));
      }
      expect(
        [...present].filter((g) => !counted.has(g)),
        e.table,
      ).toEqual([]);
      // ...and each count is the scan's (a sample: a scan per gram is slow on PGlite).
      const grams = [...counted.keys()];
      const sample = grams.filter((_, i) => i % 7 === 0);
      for (const g of sample)
        expect(counted.get(g), `${e.table} '${g}'`).toBe(await scanCount(e.table, field, g));
      // Per bucket of keys, for the entities keyed by an id (a sample of grams).
      if (!(e.key in e.fields))
        for (const g of sample.slice(0, 5)) {
          const byBucket = await server.query<{ bucket: number; n: number }>(
            `SELECT bucket, sum(n)::int AS n FROM search_grams WHERE entity_table = $1 AND gram = $2
              GROUP BY bucket HAVING sum(n) <> 0 ORDER BY bucket`,
            [e.table, g],
          );
          const scanned = await server.query<{ bucket: number; n: number }>(
            `SELECT ${e.key} / 1024 AS bucket, count(*)::int AS n FROM ${e.table}
              WHERE strpos(lower(${field}::text), $1) > 0 GROUP BY 1 ORDER BY 1`,
            [g],
          );
          expect(byBucket, `${e.table} '${g}' per bucket`).toEqual(scanned);
        }
      expect(grams.length, e.table).toBe(present.size);
    }
  });
});
