/**
 * Schools, teachers and students are each unique by e-mail, compared without case
 * (contract/unique.ts, migration 020_unique_emails): a duplicate sent as the original front-end
 * sends it is refused with a 409 naming the field and writes nothing; a record keeps its own
 * address through an edit. A database that already holds duplicates keeps starting: a warning
 * names them, they stay editable, and a new one is refused.
 */
import { rm } from 'node:fs/promises';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../server/app/start';
import { folderWithDuplicates } from '../../helpers/legacy-duplicates';
import { ADMIN, api, signedInSuite, signIn } from '../../helpers/server';
import { form } from '../support/files';

const suite = signedInSuite({ seedDemo: true });

const place = { contactNumber: '9876543210', country: 'IN', state: 'MH', city: 'Pune', zipcode: '411001' };
const ADDS = {
  school: {
    path: 'Users/Schools/addschools.php',
    table: 'schools',
    fields: { schoolName: 'Echo School', schoolAddress: '1 Road', password: 'pass-word-1', ...place },
    taken: 'office@greenvalley.example',
  },
  teacher: {
    path: 'Users/Teachers/addteachers.php',
    table: 'teachers',
    fields: { teacherName: 'Echo Teacher', password: 'pass-word-1', school: 1, ...place },
    taken: 'asha.rao@greenvalley.example',
  },
  student: {
    path: 'Users/Students/addstudents.php',
    table: 'students',
    fields: { studentName: 'Echo Student', password: 'pass-word-1', school: 1, ...place },
    taken: 'kabir@greenvalley.example',
  },
} as const;

const count = async (table: string) =>
  (await suite.server.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

describe('one e-mail, one record', () => {
  for (const [one, add] of Object.entries(ADDS)) {
    it(`refuses a ${one} whose e-mail another ${one} has, in any case, with a 409 at the field`, async () => {
      const before = await count(add.table);
      const reply = await suite.client.post(
        add.path,
        form({ ...add.fields, email: add.taken.toUpperCase() }),
      );
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({
        success: false,
        message: `Email is already used by another ${one}`,
        field: 'email',
      });
      expect(await count(add.table)).toBe(before);
      // Another kind's address is no duplicate: a teacher may have the school's e-mail.
      const other = Object.values(ADDS).find((a) => a !== add)!.taken;
      const kept = await suite.client.post(add.path, form({ ...add.fields, email: other }));
      expect(kept.body.success, JSON.stringify(kept.body)).toBe(true);
    });
  }

  it('refuses an edit that takes another record’s address, and keeps a record’s own through an edit', async () => {
    const update = 'Users/Students/updatestudents.php';
    const student = { ...ADDS.student.fields, className: 'Class 1' };
    const [ananya] = await suite.server.query<{ student_id: number }>(
      "SELECT student_id FROM students WHERE email = 'ananya@greenvalley.example'",
    );
    const taken = await suite.client.post(
      update,
      form({ ...student, student_id: ananya.student_id, email: ' Kabir@GreenValley.example ' }),
    );
    expect(taken.status).toBe(409);
    expect(taken.body.field).toBe('email');
    const own = await suite.client.post(
      update,
      form({ ...student, student_id: ananya.student_id, email: 'ANANYA@greenvalley.example' }),
    );
    expect(own.body.success, JSON.stringify(own.body)).toBe(true);
  });
});

describe('a database that already holds duplicates', () => {
  it('starts, names them in a warning, keeps them editable and refuses a new one', async () => {
    const dataDir = await folderWithDuplicates();

    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const server = await startServer({ port: 0, dataDir, adminPassword: ADMIN.password, logger });
    try {
      const warning = lines
        .map((l) => JSON.parse(l).msg)
        .find((m: string) => m.includes('a value that must be unique'));
      expect(warning).toContain('student email ravi@x.example (ids 1, 2)');
      const client = api(server.apiRoot, await signIn(server.apiRoot));
      const path = 'Users/Students/updatestudents.php';
      const student = { ...ADDS.student.fields, className: '' };
      const edited = await client.post(
        path,
        form({ ...student, student_id: 2, studentName: 'Ravi Second', email: 'Ravi@x.example' }),
      );
      expect(edited.body.success, JSON.stringify(edited.body)).toBe(true);
      const third = await client.post(ADDS.student.path, form({ ...student, email: 'RAVI@x.example' }));
      expect(third.status).toBe(409);
      expect(third.body.field).toBe('email');
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two databases made from nothing (the old schema, then the server's migrations on it).
  }, 120_000);
});
