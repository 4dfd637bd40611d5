/**
 * The original front-end: the requests its screens send, exactly as they send them.
 *
 * - Update School, Update Teacher and Update Student load the record, copy `password` from the
 *   reply into the form and send it back (api-contract §3.9-3.11, §5.7). The reply carries a
 *   fixed placeholder, never the hash; sent back, it keeps the password; a typed one changes it.
 * - The teachers' and students' lists render `item.assigned_books` as it comes: the books' names
 *   as one text.
 * - Add Resource sends V5's fixed resource-type codes (`videos` ...) in `resourceType`
 *   (api-contract §3.15): each names a resource type, found by title or created once.
 */
import { describe, expect, it } from 'vitest';
import { libraryResourceEntity } from '../../../src/contract/entities';
import { PASSWORD_PLACEHOLDER } from '../../../src/contract/password-placeholder';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const S = 'Users/Schools';
const T = 'Users/Teachers';
const ST = 'Users/Students';

/** FormData as the original builds it: `formData.append(name, value)` with its form state. */
function originalForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  return form;
}

const hashOf = async (table: string, key: string, id: number) =>
  (await suite.server.query<{ password: string }>(`SELECT password FROM ${table} WHERE ${key} = $1`, [id]))[0]
    .password;

const firstId = async (table: string, key: string) =>
  (await suite.server.query<{ id: number }>(`SELECT min(${key}) AS id FROM ${table}`))[0].id;

/**
 * Update Teacher and Update Student: the id in the body, the ten fields of their add
 * (api-contract §3.10, §3.11), `password` as loaded.
 */
function person(name: string, one: 'teacher' | 'student', folder: string, get: string, update: string) {
  const key = `${one}_id`;
  return {
    name,
    table: `${one}s`,
    key,
    get: async (id: number) => (await suite.client.get(`${folder}/${get}`, { [key]: id })).body[one],
    post: (id: number, p: Record<string, unknown>) =>
      suite.client.post(
        `${folder}/${update}`,
        originalForm({
          [key]: id,
          [`${one}Name`]: p[`${one}_name`],
          email: p.email,
          password: p.password,
          contactNumber: p.contact_no,
          country: p.country,
          state: p.state,
          city: p.city,
          zipcode: p.zipcode,
          school: p.school_id,
        }),
      ),
  };
}

/** Each edit screen: its get, the form it fills from the reply, and where it posts. */
const screens = [
  {
    name: 'Update School',
    table: 'schools',
    key: 'school_id',
    get: async (id: number) => (await suite.client.get(`${S}/getSchool.php`, { school_id: id })).body,
    // The id only in the query string; the eight fields of Add School (api-contract §3.9).
    post: (id: number, s: Record<string, unknown>) =>
      suite.client.post(
        `${S}/updateschools.php?school_id=${id}`,
        originalForm({
          schoolName: s.school_name,
          schoolAddress: s.school_address,
          password: s.password,
          email: s.email,
          contactNumber: s.contact_no,
          country: s.country,
          state: s.state,
          city: s.city,
        }),
      ),
  },
  person('Update Teacher', 'teacher', T, 'getteachers.php', 'updateteachers.php'),
  person('Update Student', 'student', ST, 'getstudents.php', 'updatestudents.php'),
];

describe.each(screens)('$name from the original', ({ table, key, get, post }) => {
  it('loads the placeholder, never the hash; an unchanged save succeeds and keeps the password', async () => {
    const id = await firstId(table, key);
    const before = await hashOf(table, key, id);
    const loaded = await get(id);
    expect(loaded.password).toBe(PASSWORD_PLACEHOLDER);
    expect(JSON.stringify(loaded)).not.toContain('scrypt');

    const reply = await post(id, loaded);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.success).toBe(true);
    expect(await hashOf(table, key, id)).toBe(before);
  });

  it('a typed new password changes it', async () => {
    const id = await firstId(table, key);
    const before = await hashOf(table, key, id);
    const reply = await post(id, { ...(await get(id)), password: 'typed-anew' });
    expect(reply.status).toBe(200);
    const after = await hashOf(table, key, id);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^scrypt\$/);
  });
});

describe('the placeholder is never a new password', () => {
  it('an add carrying it is refused and stores nothing', async () => {
    const count = async () =>
      (await suite.server.query<{ n: number }>('SELECT count(*) AS n FROM schools'))[0].n;
    const before = await count();
    const reply = await suite.client.post(
      `${S}/addschools.php`,
      originalForm({
        schoolName: 'Placeholder School',
        schoolAddress: '1 Road',
        password: PASSWORD_PLACEHOLDER,
        email: 'p@school.example',
        contactNumber: '9876543210',
        country: 'IN',
        state: 'MH',
        city: 'Pune',
      }),
    );
    expect(reply).toMatchObject({
      status: 400,
      body: {
        success: false,
        message: `Password cannot be "${PASSWORD_PLACEHOLDER}": that text means "keep the current password"`,
      },
    });
    expect(await count()).toBe(before);
  });

  it('list replies carry no password at all', async () => {
    for (const path of [`${S}/fetchschools.php`, `${T}/fetchteachers.php`, `${ST}/fetchstudents.php`])
      expect(JSON.stringify((await suite.client.get(path)).body)).not.toMatch(/"password"/);
  });
});

describe('assigned_books in the teachers and students lists', () => {
  /** Book names by id, from the books list. */
  const bookNames = async () =>
    new Map(
      (
        (await suite.client.get('Masterfilter/Book/fetchbooks.php')).body.books as Record<string, unknown>[]
      ).map((b) => [b.book_id as number, b.book_name as string]),
    );

  it.each([
    ['teachers', T, 'fetchteachers.php', 'teacher_id', 'assignbooks.php'],
    ['students', ST, 'fetchstudents.php', 'student_id', 'assignbook.php'],
  ])(
    '%s: the names as one text, sorted, on paged and bare lists; empty when none',
    async (listField, folder, list, key, assign) => {
      const rows = (await suite.client.get(`${folder}/${list}`)).body[listField] as Record<string, unknown>[];
      const [first, second] = rows.map((r) => r[key] as number);
      const names = await bookNames();
      const [b1, b2] = [...names.keys()];
      await suite.client.post(`${folder}/${assign}`, {
        [key]: first,
        books: [{ book_id: b2 }, { book_id: b1 }],
      });
      await suite.client.post(`${folder}/${assign}`, { [key]: second, books: [] });
      const expected = [names.get(b1), names.get(b2)].sort().join(', ');

      const queries: Record<string, string | number>[] = [
        {},
        { search: '', page: 1, limit: 20, sortOption: '' },
      ];
      for (const query of queries) {
        const listed = (await suite.client.get(`${folder}/${list}`, query)).body[listField] as Record<
          string,
          unknown
        >[];
        const byId = new Map(listed.map((r) => [r[key], r]));
        expect(byId.get(first)?.assigned_books).toBe(expected);
        expect(byId.get(second)?.assigned_books).toBe('');
        // Our app reads the ids, as before.
        expect(byId.get(first)?.books).toEqual([b1, b2].sort((a, b) => a - b));
      }
      // A delta pull is our app's: the ids only.
      const delta = (await suite.client.get(`${folder}/${list}`, { since: 0 })).body[listField] as Record<
        string,
        unknown
      >[];
      expect(delta.every((r) => !('assigned_books' in r))).toBe(true);
    },
  );

  it('the schools list has none: the original does not show it there', async () => {
    const listed = (await suite.client.get(`${S}/fetchschools.php`)).body.schools as Record<
      string,
      unknown
    >[];
    expect(listed.every((r) => !('assigned_books' in r))).toBe(true);
  });
});

describe("Add Resource with V5's resource-type codes", () => {
  const L = libraryResourceEntity.api;
  /** What V5's Add Resource sends: the seven fixed fields, then only the filled ones. */
  const addResource = (resourceType: string, extra: Record<string, string> = {}) =>
    suite.client.post(
      L.add!,
      originalForm({
        selectedClass: 1,
        selectedSubject: 1,
        selectedSeries: 1,
        selectedBook: 1,
        selectedChapter: 1,
        resourceTitle: `A ${resourceType} resource`,
        resourceType,
        ...extra,
      }),
    );
  const typeOf = async (id: number) =>
    (await suite.client.get(L.get!, { resource_id: id })).body.resource as Record<string, unknown>;

  it('each code names a resource type of its title, made once and then reused', async () => {
    const listTypes = async () =>
      await suite.server.query<{ id: number; title: string; entry_type: number }>(
        'SELECT id, title, entry_type FROM resource_types ORDER BY id',
      );
    const before = await listTypes();
    const first = await addResource('videos', { videoLink: 'https://example.org/v' });
    expect(first.body, JSON.stringify(first.body)).toMatchObject({ success: true });
    const again = await addResource('videos');
    expect(again.status).toBe(200);
    const made = (await listTypes()).filter((t) => !before.some((b) => b.id === t.id));
    expect(made).toEqual([{ id: expect.any(Number), title: 'Videos', entry_type: 1 }]);
    expect((await typeOf(first.body.id)).resource_type).toBe(made[0].id);
    expect((await typeOf(again.body.id)).resource_type).toBe(made[0].id);
    expect((await typeOf(first.body.id)).resource_type_name).toBe('Videos');
  });

  it('a type titled like the code is used whatever its case; an id stays an id', async () => {
    const [audio] = await suite.server.query<{ id: number }>(
      "INSERT INTO resource_types (title, entry_type) VALUES ('AUDIO', 6) RETURNING id",
    );
    const byCode = await addResource('audio', { audioLink: 'https://example.org/a.mp3' });
    expect((await typeOf(byCode.body.id)).resource_type).toBe(audio.id);
    const byId = await addResource(String(audio.id));
    expect((await typeOf(byId.body.id)).resource_type).toBe(audio.id);
  });

  it('updatelibrary.php takes a code too', async () => {
    const id = (await addResource('1')).body.id;
    const reply = await suite.client.post(
      L.update!,
      originalForm({
        resource_id: id,
        selectedClass: 1,
        selectedSubject: 1,
        selectedSeries: 1,
        selectedBook: 1,
        selectedChapter: 1,
        resourceTitle: 'Keys',
        resourceType: 'answerkeys',
      }),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await typeOf(id)).resource_type_name).toBe('Answer Keys');
  });
});
