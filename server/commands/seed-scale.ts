/**
 * `npm run seed:scale -- --students 100000` (README, "Trying the app at size"): adds N students
 * (default 100,000) with their schools and teachers to the server's database: PGlite in
 * DATA_DIR (default ./data; stop the server first, PGlite is one process's) or the PostgreSQL
 * of DATABASE_URL. A database created by this command gets the demo data first, as a first
 * start of the server would (the master data and books the students are given).
 */
import { parseArgs } from 'node:util';
import { startServer } from '../app/start';
import { openDatabase } from '../db';
import { SEED_PASSWORD, seedScale } from '../seed/scale';

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

// A start of the server itself creates a new database, with the demo data and its files, as a
// first `npm start` would (migrations, seeding and the file journal in one place); on an
// existing database it only checks the schema is current.
const server = await startServer({ dataDir, databaseUrl, seedDemo: true, port: 0 });
await server.close();
const db = await openDatabase({ dataDir, databaseUrl });
try {
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
