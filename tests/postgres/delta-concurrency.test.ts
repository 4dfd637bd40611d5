/**
 * The delta cursor never skips a write that was in flight when it was computed (see
 * server/entities/delta.ts). Only meaningful on PostgreSQL, where transactions really overlap:
 * PGlite serialises them, so this suite belongs to the 'postgres' project, which
 * scripts/test-postgres.mjs runs against a real cluster.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

const P = classEntity.api;
let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
  server = await startTestServer();
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

describe('delta cursor with a concurrent writer', () => {
  it('waits for an uncommitted write instead of returning a cursor past it', async () => {
    const start = (await client.get(P.list, { since: 0 })).body.cursor;
    const writer = new pg.Client({ connectionString: server.databaseUrl });
    await writer.connect();
    try {
      // A slow writer takes its rev first; a quick one takes a later rev and commits.
      await writer.query('BEGIN');
      await writer.query("INSERT INTO classes (class_name) VALUES ('Slow')");
      const pull = client.get(P.list, { since: start });
      const quick = client.post(P.add, { className: 'Quick' });
      await new Promise((r) => setTimeout(r, 300));
      await writer.query('COMMIT');
      await quick;

      const first = (await pull).body;
      const seen = first.classes.map((c: { class_name: string }) => c.class_name);
      const second = (await client.get(P.list, { since: first.cursor })).body;
      const later = second.classes.map((c: { class_name: string }) => c.class_name);
      // Whatever the first pull saw, the two pulls together hold both rows.
      expect([...seen, ...later].sort()).toEqual(['Quick', 'Slow']);
    } finally {
      await writer.end();
    }
  });
});

describe('delta pages while writers commit out of order', () => {
  it('a copy built from small pages ends equal to the table: no add, change or deletion skipped', async () => {
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let cursor = '0';
    const copy = new Map<number, string>();
    const apply = (body: { classes: { class_id: number; class_name: string }[]; deleted: number[] }) => {
      for (const r of body.classes) copy.set(r.class_id, r.class_name);
      for (const id of body.deleted) copy.delete(id);
    };
    // Each writer: transactions that hold their revs a random while before committing, so
    // later revs often commit first; some rename or delete what another writer added.
    const writer = async (w: number) => {
      const c = new pg.Client({ connectionString: server.databaseUrl });
      await c.connect();
      try {
        for (let i = 0; i < 40; i++) {
          await c.query('BEGIN');
          await c.query('INSERT INTO classes (class_name) VALUES ($1)', [`Conc ${w}-${i}`]);
          if (i % 3 === 1)
            await c.query(
              "UPDATE classes SET class_name = class_name || '+' WHERE class_id = (SELECT max(class_id) - 2 FROM classes WHERE class_name LIKE 'Conc %')",
            );
          if (i % 5 === 4)
            await c.query(
              "DELETE FROM classes WHERE class_id = (SELECT min(class_id) FROM classes WHERE class_name LIKE 'Conc %')",
            );
          await pause(Math.floor(Math.random() * 25));
          await c.query('COMMIT');
        }
      } finally {
        await c.end();
      }
    };
    let writing = true;
    const writers = Promise.all([1, 2, 3, 4].map(writer)).finally(() => {
      writing = false;
    });
    const pullPage = async () => {
      const { body } = await client.get(P.list, { since: cursor, sinceLimit: 3 });
      expect(body.classes.length + body.deleted.length).toBeLessThanOrEqual(3);
      apply(body);
      cursor = body.cursor;
      return body.more as boolean;
    };
    while (writing) if (!(await pullPage())) await pause(5);
    await writers;
    while (await pullPage());

    const rows = await server.query<{ class_id: number; class_name: string }>(
      'SELECT class_id, class_name FROM classes',
    );
    expect(new Map(rows.map((r) => [r.class_id, r.class_name]))).toEqual(copy);
    expect([...copy.values()].filter((n) => n.startsWith('Conc')).length).toBeGreaterThan(100);
  });
});
