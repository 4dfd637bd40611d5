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

describe('delta cursor with a concurrent writer', () => {
  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
    server = await startTestServer();
    client = api(server.apiRoot, await signIn(server.apiRoot));
  });
  afterAll(() => server?.close());

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
