/** The migration list and the runner (engine-independent checks; the suites cover real use). */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../server/db';
import { runMigrations } from '../../../server/db/migrate';
import { openPglite } from '../../../server/db/pglite';
import { migrations } from '../../../server/migrations';

describe('migrations', () => {
  it('lists every SQL file of server/migrations, in order', async () => {
    const files = (await readdir(new URL('../../../server/migrations/', import.meta.url)))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const listed = migrations.map((m) => `${m.name}.sql`);
    const missing = files.filter((f) => !listed.includes(f));
    const add = missing.map(
      (f) => `\`import … from './${f}?raw'\` and \`{ name: '${f.slice(0, -4)}', sql: … },\``,
    );
    const advice =
      missing.length > 0
        ? `server/migrations/index.ts lacks ${missing.join(', ')}: add ${add.join('; ')} to its list`
        : 'server/migrations/index.ts lists the migrations out of order, or one with no file';
    expect(listed, advice).toEqual(files);
    for (const f of files) expect(f).toMatch(/^[0-9]{3}_[a-z0-9_]+\.sql$/);
  });

  it('applies each migration once and records it', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(db.fresh).toBe(true);
      expect(await runMigrations(db, migrations)).toEqual([]);
      const rows = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
    } finally {
      await db.close();
    }
  });

  it('applies a migration numbered below ones already applied, and only it', async () => {
    const db = await openPglite(undefined);
    try {
      const probe = (name: string) => ({ name, sql: `CREATE TABLE ${name.slice(4)} (x int)` });
      const [early, late, later] = [probe('900_early'), probe('901_late'), probe('902_later')];
      expect(await runMigrations(db, [early, later])).toEqual([early.name, later.name]);
      // A file merged after later ones ran: the runner applies what this database has not seen.
      expect(await runMigrations(db, [early, late, later])).toEqual([late.name]);
      expect(await runMigrations(db, [early, late, later])).toEqual([]);
      expect(await db.query("SELECT 1 FROM pg_tables WHERE tablename = 'late'")).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it('refers to content images stored with a host by their path, and leaves other images and rows alone', async () => {
    const db = await openPglite(undefined);
    try {
      const before = migrations.filter((m) => m.name < '019_content_image_paths');
      await runMigrations(db, before);
      const own = '<p><img src="http://10.0.0.5:8080/api/uploads/cms/a.png" alt="x"></p>';
      const foreign = '<p><img src="https://example.org/api/uploads/other/b.png"></p>';
      await db.query('INSERT INTO about_us (content) VALUES ($1)', [own]);
      await db.query('INSERT INTO terms (content) VALUES ($1)', [foreign]);
      const [terms] = await db.query<{ rev: number }>('SELECT rev FROM terms');
      expect(await runMigrations(db, migrations)).toContain('019_content_image_paths');
      expect(await db.query('SELECT content FROM about_us')).toEqual([
        { content: '<p><img src="/api/uploads/cms/a.png" alt="x"></p>' },
      ]);
      // A row with nothing to change is not written: devices do not pull it again.
      expect(await db.query('SELECT content, rev FROM terms')).toEqual([
        { content: foreign, rev: terms.rev },
      ]);
    } finally {
      await db.close();
    }
  });

  it('tracks a new entity table with one line, and keeps no counts beside the tables', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await db.query(`
        CREATE TABLE recipe_probes (probe_id serial PRIMARY KEY, probe_name text NOT NULL, rev bigint NOT NULL DEFAULT 0);
        SELECT track_changes('recipe_probes', 'probe_id');`);
      const [a] = await db.query<{ probe_id: number; rev: number }>(
        "INSERT INTO recipe_probes (probe_name) VALUES ('A') RETURNING probe_id, rev",
      );
      expect(Number(a.rev)).toBeGreaterThan(0);
      await db.query('DELETE FROM recipe_probes');
      expect(await db.query("SELECT id FROM tombstones WHERE entity_table = 'recipe_probes'")).toEqual([
        { id: a.probe_id },
      ]);
      expect(await db.query("SELECT 1 FROM pg_indexes WHERE indexname = 'recipe_probes_rev'")).toHaveLength(
        1,
      );
      // Only change tracking fires on an entity table.
      const triggers = await db.query<{ tgname: string }>(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'students'::regclass AND NOT tgisinternal",
      );
      expect(triggers.map((t) => t.tgname)).toEqual(['students_track']);
      expect(
        await db.query(
          "SELECT tablename FROM pg_tables WHERE tablename IN ('row_counts', 'key_buckets', 'search_grams', 'search_gram_log')",
        ),
      ).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('rolls a failing batch back as a whole', async () => {
    const db: Database = await openDatabase({ dataDir: 'memory://' });
    try {
      const batch = [
        { name: '900_ok', sql: 'CREATE TABLE probe (x int)' },
        { name: '901_broken', sql: 'CREATE TABLE nonsense (' },
      ];
      await expect(runMigrations(db, batch)).rejects.toThrow();
      expect(await db.query("SELECT 1 FROM schema_migrations WHERE name = '900_ok'")).toEqual([]);
      expect(await db.query("SELECT 1 FROM pg_tables WHERE tablename = 'probe'")).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('tracks changes: revs from one sequence, tombstones on delete', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const [a] = await db.query<{ class_id: number; rev: number }>(
        "INSERT INTO classes (class_name) VALUES ('A') RETURNING class_id, rev",
      );
      const [b] = await db.query<{ rev: number }>("UPDATE classes SET class_name = 'B' RETURNING rev");
      await db.query('DELETE FROM classes');
      const tombstones = await db.query<{ entity_table: string; id: number; rev: number }>(
        'SELECT * FROM tombstones',
      );
      expect(b.rev).toBeGreaterThan(a.rev);
      expect(tombstones).toEqual([{ entity_table: 'classes', id: a.class_id, rev: b.rev + 1 }]);
    } finally {
      await db.close();
    }
  });

  it('gives teacher codes past T99999 without repeating one (lpad would cut T100000 to T10000)', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const [school] = await db.query<{ id: number }>(
        `INSERT INTO schools (school_name, school_address, password, email, contact_no, country, state, city)
         VALUES ('S', 'A', 'x', 's@x.example', '98765', 'IN', 'MH', 'Pune') RETURNING school_id AS id`,
      );
      await db.query("SELECT setval('teacher_code_seq', 99998)");
      const codes = await db.query<{ teacher_code: string }>(
        `INSERT INTO teachers (teacher_name, email, password, contact_no, school_id, country, state, city)
         SELECT 'T' || n, 't' || n || '@x.example', 'x', '98765', $1, 'IN', 'MH', 'Pune' FROM generate_series(1, 3) AS n
         RETURNING teacher_code`,
        [school.id],
      );
      expect(codes.map((c) => c.teacher_code)).toEqual(['T99999', 'T100000', 'T100001']);
    } finally {
      await db.close();
    }
  });
});
