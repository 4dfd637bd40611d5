/**
 * A data folder as an install made before schools, teachers and students were unique by
 * e-mail may hold it: migrated up to just before 020_unique_emails, with one school and two
 * students of one address in different case (ids 1 and 2), so that a server started on it
 * runs that migration over duplicates.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMigrations } from '../../server/db/migrate';
import { openPglite } from '../../server/db/pglite';
import { migrations } from '../../server/migrations';

export const SHARED_ADDRESS = 'ravi@x.example';

export async function folderWithDuplicates(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'duplicates-'));
  const db = await openPglite(dataDir);
  try {
    await runMigrations(
      db,
      migrations.filter((m) => m.name < '020_unique_emails'),
    );
    await db.query(
      `INSERT INTO schools (school_name, school_address, password, email, contact_no, country, state, city)
       VALUES ('Hill School', '1 Road', 'x', 'office@hill.example', '98765', 'IN', 'MH', 'Pune')`,
    );
    await db.query(
      `INSERT INTO students (student_name, email, password, contact_no, school_id, country, state, city)
       VALUES ('Ravi One', $1, 'x', '9876543210', 1, 'IN', 'MH', 'Pune'),
              ('Ravi Two', upper(left($1, 1)) || substr($1, 2), 'x', '9876543210', 1, 'IN', 'MH', 'Pune')`,
      [SHARED_ADDRESS],
    );
  } finally {
    await db.close();
  }
  return dataDir;
}
