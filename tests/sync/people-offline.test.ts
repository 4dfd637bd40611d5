/**
 * People offline against the real server over HTTP: in one offline session a school
 * with a logo, a teacher and a student in it, a book, that book assigned to all three and the
 * teacher disabled; on reconnect everything reaches the server once, temporary ids replaced
 * (the school in the teacher and student, the book in the assignments). And the three-way merge
 * of an assignment the server changed meanwhile; toggles that fold to nothing.
 */
import { describe, expect, it } from 'vitest';
import { catalogueSets } from '../../src/contract/catalogue/entity-catalogue';
import {
  bookEntity,
  entities,
  schoolEntity,
  studentEntity,
  teacherEntity,
} from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { wireRequest } from '../../src/contract/wire-request';
import { dashboardFigures } from '../../src/db/dashboard/dashboard-figures';
import { mutate } from '../../src/db/mutate';
import type { ApiClient } from '../../src/sync/api/api-client';
import { requestOptions } from '../../src/sync/api/encode-request';
import { pull } from '../../src/sync/pull/pull';
import { pngFile } from '../helpers/files';
import { api, signIn } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function serverRows(client: ApiClient, entity: EntityDescription): Promise<Record<string, unknown>[]> {
  const request = wireRequest(entity, { op: 'list' });
  const outcome = await client.request(request.path, requestOptions(request));
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body[entity.api.listField!] as Record<string, unknown>[];
}

const personValues = (name: string, school_id: string) => ({
  email: `${name.toLowerCase().replace(/ /g, '.')}@example.org`,
  password: 'secret-1',
  contact_no: '+91 98765 43210',
  school_id,
  country: 'IN',
  state: 'MH',
  city: 'Pune',
  zipcode: '411001',
});

const FIGURES = {
  teachers: 'teachers',
  books: 'books',
  bookSets: catalogueSets(entities).filter((s) => s.target === 'book'),
};

describe.each([
  ['our server', false],
  ['the legacy server', true],
])('people offline against %s', (_name, legacy) => {
  it('a school with a logo, a teacher and a student in it, a book assigned to all three, a toggle: each sent once', async () => {
    const { proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
    await pull(ctx);
    const before = await dashboardFigures(ctx.db, FIGURES);
    if (!before) throw new Error('the first sync has completed: the figures must be there');

    const school = await mutate(ctx.db, {
      op: 'add',
      entity: schoolEntity,
      values: {
        school_name: 'Hill Side School',
        school_address: '1 Hill Road',
        password: 'school-1',
        email: 'office@hillside.example',
        contact_no: '022 2345 6789',
        country: 'IN',
        state: 'MH',
        city: 'Mumbai',
        school_logo: pngFile('logo.png'),
      },
    });
    const teacher = await mutate(ctx.db, {
      op: 'add',
      entity: teacherEntity,
      values: { teacher_name: 'Meera Joshi', ...personValues('Meera Joshi', school.key) },
    });
    const student = await mutate(ctx.db, {
      op: 'add',
      entity: studentEntity,
      values: {
        student_name: 'Tara Kulkarni',
        class_name: 'Class 2',
        ...personValues('Tara Kulkarni', school.key),
      },
    });
    const book = await mutate(ctx.db, {
      op: 'add',
      entity: bookEntity,
      values: { class_id: '1', subject_id: '1', series_id: '1', book_name: 'Hill Reader', book_code: 'HR-1' },
    });
    for (const [entity, key] of [
      [schoolEntity, school.key],
      [teacherEntity, teacher.key],
      [studentEntity, student.key],
    ] as const)
      await mutate(ctx.db, { op: 'relate', entity, key, relation: 'books', ids: [book.key] });
    await mutate(ctx.db, {
      op: 'set',
      entity: teacherEntity,
      key: teacher.key,
      action: 'status',
      value: 'Disabled',
    });

    // The dashboard follows at once, offline.
    expect(await dashboardFigures(ctx.db, FIGURES)).toEqual({
      teachers: before.teachers + 1,
      pendingApprovals: before.pendingApprovals + 1,
      booksNotAssigned: before.booksNotAssigned,
    });

    await drain(ctx);
    expect(await ctx.db.outbox.toArray()).toEqual([]);
    // Against the legacy server the first batch is refused whole (no reply of its own for its
    // items), then each entry goes alone: what reached the server is what got a reply.
    const writes = proxy.log.filter(
      (r) => r.method === 'POST' && r.key !== null && !(r.batched && !r.replied),
    );
    expect(new Set(writes.map((r) => r.key)).size).toBe(writes.length);
    expect(writes).toHaveLength(8);

    const session = api(`${proxy.url}/api`, await signIn(`${proxy.url}/api`));
    const schools = await serverRows(ctx.api, schoolEntity);
    const serverSchool = schools.find((s) => s.school_name === 'Hill Side School')!;
    expect(serverSchool.school_logo).toMatch(/\.png$/);
    const serverBook = (await serverRows(ctx.api, bookEntity)).find((b) => b.book_name === 'Hill Reader')!;
    const serverTeacher = (await serverRows(ctx.api, teacherEntity)).find(
      (t) => t.teacher_name === 'Meera Joshi',
    )!;
    const serverStudent = (await serverRows(ctx.api, studentEntity)).find(
      (t) => t.student_name === 'Tara Kulkarni',
    )!;
    expect(serverTeacher).toMatchObject({ school_id: serverSchool.school_id, status: 'Disabled' });
    expect(serverStudent).toMatchObject({ school_id: serverSchool.school_id, class_name: 'Class 2' });
    for (const [folder, key, id] of [
      ['Users/Schools', 'school_id', serverSchool.school_id],
      ['Users/Teachers', 'teacher_id', serverTeacher.teacher_id],
      ['Users/Students', 'student_id', serverStudent.student_id],
    ] as const) {
      const assigned = (await session.post(`${folder}/fetchassigned.php`, { [key]: id })).body.assignedBooks;
      expect(assigned, folder).toEqual([serverBook.book_id]);
    }
    // Locally the temporary ids became the server's, in refs and in sets alike.
    const localTeacher = await ctx.db.rows(teacherEntity).get(String(serverTeacher.teacher_id));
    expect(localTeacher).toMatchObject({
      school_id: String(serverSchool.school_id),
      books: [String(serverBook.book_id)],
    });
  });
});

describe('assignments meet the server', () => {
  it('merge three ways with what another administrator changed meanwhile', async () => {
    const { ctx, server } = await fixtures.proxied({ seedDemo: true });
    const other = api(server.apiRoot, await signIn(server.apiRoot));
    const added = await other.post(
      'Users/Schools/addschools.php',
      (() => {
        const f = new FormData();
        for (const [k, v] of Object.entries({
          schoolName: 'Shared School',
          schoolAddress: 'Road 1',
          password: 'x-secret',
          email: 'shared@example.org',
          contactNumber: '12345678',
          country: 'IN',
          state: 'KA',
          city: 'Bengaluru',
        }))
          f.set(k, v);
        return f;
      })(),
    );
    const id = added.body.id;
    // The set both sides start from: books 1 and 2.
    await other.post('Users/Schools/assignbook.php', {
      school_id: id,
      books: [{ book_id: 1 }, { book_id: 2 }],
    });
    await pull(ctx);

    // Offline, this device removes 2 and adds 3; meanwhile the other administrator adds 4.
    await mutate(ctx.db, {
      op: 'relate',
      entity: schoolEntity,
      key: String(id),
      relation: 'books',
      ids: ['1', '3'],
    });
    await other.post('Users/Schools/assignbook.php', {
      school_id: id,
      books: [{ book_id: 1 }, { book_id: 2 }, { book_id: 4 }],
    });
    await drain(ctx);

    const assigned = (await other.post('Users/Schools/fetchassigned.php', { school_id: id })).body
      .assignedBooks;
    expect(assigned).toEqual([1, 3, 4]);
    await pull(ctx);
    expect((await ctx.db.rows(schoolEntity).get(String(id)))?.books).toEqual(['1', '3', '4']);
  });

  it('two toggles made offline send nothing', async () => {
    const { ctx, proxy } = await fixtures.proxied({ seedDemo: true });
    await pull(ctx);
    const [book] = await ctx.db.rows(bookEntity).toArray();
    const value = book.status === 'Enabled' ? 'Disabled' : 'Enabled';
    await mutate(ctx.db, {
      op: 'set',
      entity: bookEntity,
      key: String(book.book_id),
      action: 'popular',
      value,
    });
    await mutate(ctx.db, {
      op: 'set',
      entity: bookEntity,
      key: String(book.book_id),
      action: 'popular',
      value: book.status as string,
    });
    await drain(ctx);
    expect(proxy.log.filter((r) => r.method === 'POST' && r.key !== null)).toEqual([]);
  });
});
