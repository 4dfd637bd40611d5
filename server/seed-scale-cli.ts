/**
 * `npm run seed:scale -- --students 100000` (README, "Trying the app at size"): adds N students
 * (default 100,000) with their schools and teachers to the server's database: PGlite in
 * DATA_DIR (default ./data; stop the server first, PGlite is one process's) or the PostgreSQL
 * of DATABASE_URL. A database created by this command gets the demo data first, as a first
 * start of the server would (the master data and books the students are given).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from './db';
import { seedDemo } from './seed';
import { SEED_PASSWORD, seedScale } from './seed-scale';
import { saveUpload } from './uploads/store';

function count(value: string | undefined, name: string, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, not '${value}'`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    students: { type: 'string' },
    schools: { type: 'string' },
    teachers: { type: 'string' },
  },
});
const dataDir = process.env.DATA_DIR || './data';
const databaseUrl = process.env.DATABASE_URL || undefined;

const db = await openDatabase({ dataDir, databaseUrl });
try {
  if (db.fresh) {
    const uploadsDir = join(dataDir, 'uploads');
    await db.tx((q) => seedDemo(q, (folder, data, ext) => saveUpload(uploadsDir, folder, data, ext)));
  }
  const done = await seedScale(db, {
    students: count(values.students, 'students', 100_000)!,
    schools: count(values.schools, 'schools'),
    teachers: count(values.teachers, 'teachers'),
  });
  const n = (x: number) => x.toLocaleString('en');
  console.log(
    `Added ${n(done.students)} students, ${n(done.teachers)} teachers and ${n(done.schools)} schools ` +
      `(${n(done.assignments)} book assignments) to ${databaseUrl ? 'the PostgreSQL of DATABASE_URL' : `PGlite in ${dataDir}`} ` +
      `in ${(done.ms / 1000).toFixed(1)} s.`,
  );
  console.log(
    `Each of them has the password '${SEED_PASSWORD}' (hashed once; every row holds the same hash).`,
  );
} finally {
  await db.close();
}
