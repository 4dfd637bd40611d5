/**
 * Schools, teachers and students (api-contract §3.9-3.12 and the spec's newer teacher list),
 * with the requests the original client sends: multipart adds and updates with `profilePic`,
 * the school's update id in the query string, teachers' and students' in the body, toggles as
 * JSON with the new status, assignments as whole sets, `getSchool.php` read flat. And the
 * rules: hashed passwords never returned, valid e-mails and contact numbers, existing schools
 * and books, a school with people cannot be deleted, a deleted book leaves every assignment.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD_PLACEHOLDER } from '../../../src/contract/password-placeholder';
import { api, signedInSuite } from '../../helpers/server';
import { form, MB, sampleFile } from '../support/files';

const suite = signedInSuite({ seedDemo: true });
const S = 'Users/Schools';
const T = 'Users/Teachers';
const ST = 'Users/Students';

/** Each record its own address: schools, teachers and students are unique by e-mail. */
let made = 0;
const address = (who: string) => `${who}${++made}@greenvalley.example`;

const school = (extra: Record<string, string | number | File> = {}) =>
  form({
    schoolName: 'Green Valley School',
    schoolAddress: '12 Hill Road',
    password: 'school-secret',
    email: address('office'),
    contactNumber: '+91 98765-43210',
    country: 'IN',
    state: 'MH',
    city: 'Mumbai',
    ...extra,
  });

const person = (
  prefix: 'teacher' | 'student',
  schoolId: number,
  extra: Record<string, string | number | File> = {},
) =>
  form({
    [`${prefix}Name`]: prefix === 'teacher' ? 'Asha Rao' : 'Ravi Kumar',
    email: address(prefix),
    password: `${prefix}-secret`,
    contactNumber: '9876543210',
    country: 'IN',
    state: 'MH',
    city: 'Pune',
    zipcode: '411001',
    school: schoolId,
    ...extra,
  });

async function addSchool(extra: Record<string, string | number | File> = {}): Promise<number> {
  const reply = await suite.client.post(`${S}/addschools.php`, school(extra));
  expect(reply.body, JSON.stringify(reply.body)).toMatchObject({
    success: true,
    message: 'School added successfully',
  });
  return reply.body.id;
}

async function addTeacher(
  schoolId: number,
  extra: Record<string, string | number | File> = {},
): Promise<number> {
  const reply = await suite.client.post(`${T}/addteachers.php`, person('teacher', schoolId, extra));
  expect(reply.body, JSON.stringify(reply.body)).toMatchObject({ success: true });
  return reply.body.id;
}

async function addStudent(
  schoolId: number,
  extra: Record<string, string | number | File> = {},
): Promise<number> {
  const reply = await suite.client.post(
    `${ST}/addstudents.php`,
    person('student', schoolId, { className: 'Class 3', ...extra }),
  );
  expect(reply.body, JSON.stringify(reply.body)).toMatchObject({ success: true });
  return reply.body.id;
}

describe('schools', () => {
  it('adds with a logo, reads flat, lists bare and paged, updates by query id, keeps the logo without a new file', async () => {
    const id = await addSchool({ profilePic: sampleFile('png', 'logo.png') });
    const flat = (await suite.client.get(`${S}/getSchool.php`, { school_id: id })).body;
    expect(flat).toMatchObject({
      school_id: id,
      school_name: 'Green Valley School',
      country: 'IN',
      state: 'MH',
      city: 'Mumbai',
    });
    expect(flat.school_logo).toMatch(/\.png$/);

    const bare = (await suite.client.get(`${S}/fetchschools.php`)).body;
    expect(bare.schools.map((s: { school_id: number }) => s.school_id)).toContain(id);
    const paged = (
      await suite.client.get(`${S}/fetchschools.php`, { search: 'Green', page: 1, limit: 10, sortOption: '' })
    ).body;
    expect(paged.total).toBeGreaterThanOrEqual(1);

    const updated = await suite.client.post(
      `${S}/updateschools.php?school_id=${id}`,
      school({ schoolName: 'Green Valley High', password: '' }),
    );
    expect(updated.body).toEqual({ success: true, message: 'School updated successfully' });
    const after = (await suite.client.get(`${S}/getSchool.php`, { school_id: id })).body;
    expect(after).toMatchObject({ school_name: 'Green Valley High', school_logo: flat.school_logo });
  });

  it('takes a gif logo only on update, refuses other files and logos over 2 MB', async () => {
    const gifOnAdd = await suite.client.post(
      `${S}/addschools.php`,
      school({ profilePic: sampleFile('gif', 'logo.gif') }),
    );
    expect(gifOnAdd).toMatchObject({
      status: 400,
      body: { success: false, message: 'School Logo must be a jpg, jpeg or png image' },
    });
    const big = await suite.client.post(
      `${S}/addschools.php`,
      school({ profilePic: sampleFile('png', 'big.png', 2 * MB + 1) }),
    );
    expect(big).toMatchObject({ status: 400, body: { message: 'School Logo is larger than 2 MB' } });
    const id = await addSchool();
    const gif = await suite.client.post(
      `${S}/updateschools.php?school_id=${id}`,
      school({ profilePic: sampleFile('gif', 'logo.gif') }),
    );
    expect(gif.body).toMatchObject({ success: true });
    const pdf = await suite.client.post(
      `${S}/updateschools.php?school_id=${id}`,
      school({ profilePic: sampleFile('pdf', 'logo.png') }),
    );
    expect(pdf).toMatchObject({
      status: 400,
      body: { message: 'School Logo must be a jpg, jpeg, png or gif image' },
    });
  });

  it('refuses bad e-mails and contact numbers, and missing fields', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ email: 'not-an-address' }, 'Email must be a valid e-mail address'],
      [{ email: 'a@b' }, 'Email must be a valid e-mail address'],
      [
        { contactNumber: '12ab34' },
        'Contact Number must be 5 to 20 digits, with an optional leading + and spaces or dashes',
      ],
      [
        { contactNumber: '1234' },
        'Contact Number must be 5 to 20 digits, with an optional leading + and spaces or dashes',
      ],
      [
        { contactNumber: '123456789012345678901' },
        'Contact Number must be 5 to 20 digits, with an optional leading + and spaces or dashes',
      ],
      [{ schoolName: '' }, 'School Name is required'],
      [{ password: '' }, 'Password is required'],
      [{ country: 'India' }, 'Country must be a two-letter country code'],
    ];
    for (const [extra, message] of cases) {
      expect(
        await suite.client.post(`${S}/addschools.php`, school(extra)),
        JSON.stringify(extra),
      ).toMatchObject({
        status: 400,
        body: { success: false, message },
      });
    }
  });

  it('toggles status with the new value and the spec’s notices', async () => {
    const id = await addSchool();
    const off = await suite.client.post(`${S}/toggleschoolstatus.php`, { school_id: id, status: 'Disabled' });
    expect(off.body).toEqual({ success: true, message: 'School disabled successfully' });
    const on = await suite.client.post(`${S}/toggleschoolstatus.php`, {
      school_id: String(id),
      status: 'Enabled',
    });
    expect(on.body).toEqual({ success: true, message: 'School enabled successfully' });
    expect((await suite.client.get(`${S}/getSchool.php`, { school_id: id })).body.status).toBe('Enabled');
  });

  it('cannot be deleted while teachers or students belong to it', async () => {
    const id = await addSchool();
    const teacher = await addTeacher(id);
    const refused = await suite.client.post(`${S}/deleteschool.php`, { school_id: id });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        success: false,
        message: 'This school cannot be deleted: teachers still belong to it. Delete them first.',
      },
    });
    await suite.client.post(`${T}/deleteteacher.php`, { teacher_id: teacher });
    expect((await suite.client.post(`${S}/deleteschool.php`, { school_id: id })).body).toEqual({
      success: true,
      message: 'School deleted successfully',
    });
  });
});

describe('teachers', () => {
  it('adds with a picture, gets a code and a date, updates with the id in the body', async () => {
    const schoolId = await addSchool();
    const id = await addTeacher(schoolId, { profilePic: sampleFile('jpg', 'me.jpg') });
    const { teacher } = (await suite.client.get(`${T}/getteachers.php`, { teacher_id: id })).body;
    expect(teacher).toMatchObject({
      teacher_name: 'Asha Rao',
      school_id: schoolId,
      zipcode: '411001',
      status: 'Enabled',
    });
    expect(teacher.teacher_code).toMatch(/^T\d{5}$/);
    expect(new Date(teacher.date_added).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(teacher.profile_pic).toMatch(/\.jpg$/);

    const updated = await suite.client.post(
      `${T}/updateteachers.php`,
      person('teacher', schoolId, { teacher_id: id, teacherName: 'Asha R.', password: '' }),
    );
    expect(updated.body).toEqual({ success: true, message: 'Teacher updated successfully' });
    const after = (await suite.client.get(`${T}/getteachers.php`, { teacher_id: id })).body.teacher;
    expect(after).toMatchObject({
      teacher_name: 'Asha R.',
      teacher_code: teacher.teacher_code,
      profile_pic: teacher.profile_pic,
    });
  });

  it('codes are unique and never reused', async () => {
    const schoolId = await addSchool();
    const first = await addTeacher(schoolId);
    const code = async (id: number) =>
      (await suite.client.get(`${T}/getteachers.php`, { teacher_id: id })).body.teacher.teacher_code;
    const firstCode = await code(first);
    await suite.client.post(`${T}/deleteteacher.php`, { teacher_id: first });
    const second = await addTeacher(schoolId);
    const secondCode = await code(second);
    expect(secondCode).not.toBe(firstCode);
    expect(Number(secondCode.slice(1))).toBeGreaterThan(Number(firstCode.slice(1)));
  });

  it('filters by status and answers totalDisabled and totalBRow', async () => {
    const schoolId = await addSchool();
    const a = await addTeacher(schoolId);
    await addTeacher(schoolId);
    await suite.client.post(`${T}/toggleteacherstatus.php`, { teacher_id: a, status: 'Disabled' });
    const all = (
      await suite.client.get(`${T}/fetchteachers.php`, { search: '', page: 1, limit: 10, sortOption: '' })
    ).body;
    const disabled = (
      await suite.client.get(`${T}/fetchteachers.php`, { status: 'Disabled', page: 1, limit: 10 })
    ).body;
    expect(disabled.teachers.every((t: { status: string }) => t.status === 'Disabled')).toBe(true);
    expect(disabled.total).toBe(all.totalDisabled);
    expect(all.totalDisabled).toBeGreaterThanOrEqual(1);
    const books = (await suite.client.get('Masterfilter/Book/fetchbooks.php')).body.books.length;
    expect(all.totalBRow).toBeLessThanOrEqual(books);
    expect((await suite.client.get(`${T}/fetchteachers.php`, { status: 'Pending' })).status).toBe(400);
  });

  it('needs an existing school', async () => {
    const reply = await suite.client.post(`${T}/addteachers.php`, person('teacher', 999999));
    expect(reply).toMatchObject({ status: 400, body: { success: false, message: 'School does not exist' } });
  });
});

describe('students', () => {
  it('keep the class NAME on add and on update when sent', async () => {
    const schoolId = await addSchool();
    const id = await addStudent(schoolId);
    expect(
      (await suite.client.get(`${ST}/getstudents.php`, { student_id: id })).body.student.class_name,
    ).toBe('Class 3');
    await suite.client.post(
      `${ST}/updatestudents.php`,
      person('student', schoolId, { student_id: id, className: 'Class 4' }),
    );
    expect(
      (await suite.client.get(`${ST}/getstudents.php`, { student_id: id })).body.student.class_name,
    ).toBe('Class 4');
    // The original's update sends no className: the stored one stays.
    await suite.client.post(`${ST}/updatestudents.php`, person('student', schoolId, { student_id: id }));
    expect(
      (await suite.client.get(`${ST}/getstudents.php`, { student_id: id })).body.student.class_name,
    ).toBe('Class 4');
  });

  it('toggles status', async () => {
    const id = await addStudent(await addSchool());
    const off = await suite.client.post(`${ST}/togglestudentstatus.php`, {
      student_id: id,
      status: 'Disabled',
    });
    expect(off.body).toEqual({ success: true, message: 'Student disabled successfully' });
  });
});

describe('passwords', () => {
  it('are stored hashed, an empty one on update keeps the current hash, and none signs in here', async () => {
    const schoolId = await addSchool();
    const teacher = await addTeacher(schoolId);
    const hash = async () =>
      (
        await suite.server.query<{ password: string }>(
          'SELECT password FROM teachers WHERE teacher_id = $1',
          [teacher],
        )
      )[0].password;
    const before = await hash();
    expect(before).toMatch(/^scrypt\$/);
    await suite.client.post(
      `${T}/updateteachers.php`,
      person('teacher', schoolId, { teacher_id: teacher, password: '' }),
    );
    expect(await hash()).toBe(before);
    await suite.client.post(
      `${T}/updateteachers.php`,
      person('teacher', schoolId, { teacher_id: teacher, password: 'new-secret' }),
    );
    expect(await hash()).not.toBe(before);

    for (const [username, password] of [
      ['teacher@greenvalley.example', 'new-secret'],
      ['office@greenvalley.example', 'school-secret'],
      ['Asha Rao', 'new-secret'],
    ]) {
      const reply = await api(suite.server.apiRoot).post('Admin_access/login.php', { username, password });
      expect(reply.status).toBe(401);
    }
  });

  it('never leave the server: no reply carries one; a get carries the placeholder, nothing else', async () => {
    const schoolId = await addSchool({ profilePic: sampleFile('png', 'logo.png') });
    const teacher = await addTeacher(schoolId);
    const student = await addStudent(schoolId);
    const replies = [
      await suite.client.post(`${S}/addschools.php`, school()),
      await suite.client.post(`${S}/updateschools.php?school_id=${schoolId}`, school()),
      await suite.client.get(`${S}/getSchool.php`, { school_id: schoolId }),
      await suite.client.get(`${S}/fetchschools.php`),
      await suite.client.get(`${S}/fetchschools.php`, { since: 0 }),
      await suite.client.get(`${T}/getteachers.php`, { teacher_id: teacher }),
      await suite.client.get(`${T}/fetchteachers.php`, { page: 1, limit: 10 }),
      await suite.client.get(`${T}/fetchteachers.php`, { since: 0 }),
      await suite.client.post(
        `${T}/updateteachers.php`,
        person('teacher', schoolId, { teacher_id: teacher }),
      ),
      await suite.client.get(`${ST}/getstudents.php`, { student_id: student }),
      await suite.client.get(`${ST}/fetchstudents.php`, { since: 0 }),
      await suite.client.post(`${ST}/fetchassigned.php`, { student_id: student }),
      await suite.client.post(`${ST}/fetchstudentname.php`, { student_id: student }),
      await suite.client.post('sync/batch', {
        requests: [
          { method: 'GET', path: `${T}/getteachers.php`, query: { teacher_id: teacher } },
          { method: 'GET', path: `${S}/getSchool.php`, query: { school_id: schoolId } },
          { method: 'GET', path: `${ST}/getstudents.php`, query: { student_id: student } },
        ],
      }),
    ];
    const secrets = ['school-secret', 'teacher-secret', 'student-secret', 'scrypt$'];
    for (const reply of replies) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      // A get reply's `password` is the fixed placeholder the original's forms send back.
      const text = JSON.stringify(reply.body).replaceAll(`"password":"${PASSWORD_PLACEHOLDER}"`, '');
      expect(text).not.toMatch(/"password"/);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe('assignments', () => {
  const books = async () =>
    (await suite.client.get('Masterfilter/Book/fetchbooks.php')).body.books.map(
      (b: { book_id: number }) => b.book_id,
    ) as number[];

  it('replace the whole set, read back as ids, with the name endpoints beside them', async () => {
    const schoolId = await addSchool();
    const [b1, b2, b3] = await books();
    const assign = (ids: number[]) =>
      suite.client.post(`${S}/assignbook.php`, {
        school_id: schoolId,
        books: ids.map((book_id) => ({ book_id })),
      });
    expect((await assign([b1, b2])).body).toEqual({ success: true, message: 'Books assigned successfully' });
    expect((await suite.client.post(`${S}/fetchassigned.php`, { school_id: schoolId })).body).toEqual({
      success: true,
      assignedBooks: [b1, b2],
    });
    await assign([b2, b3]);
    expect(
      (await suite.client.post(`${S}/fetchassigned.php`, { school_id: schoolId })).body.assignedBooks,
    ).toEqual([b2, b3]);
    await assign([]);
    expect(
      (await suite.client.post(`${S}/fetchassigned.php`, { school_id: schoolId })).body.assignedBooks,
    ).toEqual([]);
    expect((await suite.client.post(`${S}/fetchschoolname.php`, { school_id: schoolId })).body).toEqual({
      success: true,
      school_name: 'Green Valley School',
    });
  });

  it('teachers assign through assignbooks.php (plural); the list rows carry the set', async () => {
    const teacher = await addTeacher(await addSchool());
    const [b1] = await books();
    const reply = await suite.client.post(`${T}/assignbooks.php`, {
      teacher_id: teacher,
      books: [{ book_id: String(b1) }],
    });
    expect(reply.body.success).toBe(true);
    expect(
      (await suite.client.post(`${T}/fetchteachername.php`, { teacher_id: teacher })).body.teacher_name,
    ).toBe('Asha Rao');
    const row = (await suite.client.get(`${T}/fetchteachers.php`)).body.teachers.find(
      (t: { teacher_id: number }) => t.teacher_id === teacher,
    );
    expect(row.books).toEqual([b1]);
    expect((await suite.client.post(`${T}/assignbook.php`, { teacher_id: teacher, books: [] })).status).toBe(
      404,
    );
  });

  it('refuse an unknown book and write nothing; the same set twice changes nothing', async () => {
    const student = await addStudent(await addSchool());
    const [b1] = await books();
    await suite.client.post(`${ST}/assignbook.php`, { student_id: student, books: [{ book_id: b1 }] });
    const refused = await suite.client.post(`${ST}/assignbook.php`, {
      student_id: student,
      books: [{ book_id: b1 }, { book_id: 999999 }],
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { success: false, message: 'Book 999999 does not exist' },
    });
    expect(
      await suite.client.post(`${ST}/assignbook.php`, { student_id: student, books: 'all' }),
    ).toMatchObject({ status: 400 });
    expect(
      (await suite.client.post(`${ST}/fetchassigned.php`, { student_id: student })).body.assignedBooks,
    ).toEqual([b1]);

    const { cursor } = (await suite.client.get(`${ST}/fetchstudents.php`, { since: 0 })).body;
    await suite.client.post(`${ST}/assignbook.php`, { student_id: student, books: [{ book_id: b1 }] });
    expect((await suite.client.get(`${ST}/fetchstudents.php`, { since: cursor })).body.students).toEqual([]);
  });

  it('a deleted book leaves every assignment in the same transaction, and the owners show it in a delta', async () => {
    const schoolId = await addSchool();
    const teacher = await addTeacher(schoolId);
    const added = await suite.client.post(
      'Masterfilter/Book/addbooks.php',
      form({
        selectedClass: 1,
        selectedSubject: 1,
        selectedSeries: 1,
        bookName: 'Short-lived',
        bookCode: 'SL-1',
      }),
    );
    const book = added.body.id;
    await suite.client.post(`${S}/assignbook.php`, { school_id: schoolId, books: [{ book_id: book }] });
    await suite.client.post(`${T}/assignbooks.php`, { teacher_id: teacher, books: [{ book_id: book }] });
    const { cursor } = (await suite.client.get(`${T}/fetchteachers.php`, { since: 0 })).body;
    expect(
      (await suite.client.post('Masterfilter/Book/deletebooks.php', { book_id: book })).body.success,
    ).toBe(true);
    expect(
      (await suite.client.post(`${S}/fetchassigned.php`, { school_id: schoolId })).body.assignedBooks,
    ).toEqual([]);
    const delta = (await suite.client.get(`${T}/fetchteachers.php`, { since: cursor })).body.teachers;
    expect(delta).toEqual([expect.objectContaining({ teacher_id: teacher, books: [] })]);
  });
});

describe('geography', () => {
  it('answers countries, states and cities as bare lists, behind the session', async () => {
    const countries = (await suite.client.get('geo/countries')).body;
    expect(countries).toContainEqual(expect.objectContaining({ iso2: 'IN', name: 'India' }));
    const states = (await suite.client.get('geo/countries/IN/states')).body;
    expect(states).toContainEqual(expect.objectContaining({ iso2: 'MH', name: 'Maharashtra' }));
    const all = (await suite.client.get('geo/states')).body;
    expect(all).toContainEqual(expect.objectContaining({ iso2: 'MH', country_code: 'IN' }));
    const cities = (await suite.client.get('geo/countries/IN/states/MH/cities')).body;
    expect(cities).toContainEqual(expect.objectContaining({ name: 'Mumbai' }));
    expect(await api(suite.server.apiRoot).get('geo/countries')).toMatchObject({ status: 401 });
    expect(await suite.client.get('geo/countries/I%20N/states')).toMatchObject({
      status: 404,
      body: { success: false },
    });
    expect((await suite.client.get('geo/countries/ZZ/states')).body).toEqual([]);
  });
});
