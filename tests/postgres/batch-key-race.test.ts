/**
 * A batch whose key is claimed by another request while the batch runs (server/api/batch.ts
 * stores its keys at the end): the batch runs again and answers that item from the other
 * request's stored reply, so the write behind the key happens once; and several batches
 * applied at once, as a client keeps them in flight when the server says it applies several,
 * sharing keys: each key's write happens once. Only PostgreSQL overlaps transactions, hence
 * this project.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_PATH } from '../../src/contract/batch';
import { classEntity } from '../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
  server = await startTestServer();
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

const C = classEntity.api;
const addClass = (name: string, key: string) => ({
  method: 'POST',
  path: C.add,
  key,
  json: { className: name },
});

describe('a batch racing another request for a key', () => {
  it('answers the raced item from the stored reply and applies it once', async () => {
    // The other request (the same administrator's): it has written its row and claimed the
    // key, not yet committed.
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      const [row] = (
        await other.query("INSERT INTO classes (class_name) VALUES ('Raced') RETURNING class_id AS id")
      ).rows;
      const reply = { success: true, message: 'Class added successfully', id: row.id, class_id: row.id };
      await other.query(
        `INSERT INTO idempotency_keys (admin_id, key, fingerprint, status, reply)
         SELECT id, 'race-1', $1, 200, $2::jsonb FROM admins WHERE username = 'admin'`,
        [`POST /api/${C.add}`, JSON.stringify(reply)],
      );
      const batch = client.post(BATCH_PATH, {
        requests: [addClass('Raced', 'race-1'), addClass('Alongside', 'race-2')],
      });
      // The batch adds its own 'Raced', then waits on the key at its end; the commit makes its
      // key insert conflict.
      await new Promise((r) => setTimeout(r, 500));
      await other.query('COMMIT');
      const { status, body } = await batch;
      expect(status).toBe(200);
      expect(body.replies[0]).toEqual({ status: 200, body: reply, replayed: true });
      expect(body.replies[1]).toMatchObject({ status: 200, body: { success: true }, replayed: false });
    } finally {
      await other.end();
    }
    const { body } = await client.get(C.list, { limit: 100 });
    const names = body.classes.map((c: { class_name: string }) => c.class_name).sort();
    expect(names).toEqual(['Alongside', 'Raced']);
  });
});

describe('batches applied at once', () => {
  it('says it applies several, and applies each key once when they share keys', async () => {
    const requests = Array.from({ length: 40 }, (_, i) => addClass(`Parallel ${i}`, `parallel-${i}`));
    // Four batches at once, overlapping two by two, and one request alone under a shared key.
    const sent = [
      requests.slice(0, 20),
      requests.slice(10, 30),
      requests.slice(20, 40),
      [...requests].reverse(),
    ];
    const [alone, ...replies] = await Promise.all([
      client.post(C.add, { className: 'Parallel 15' }, { 'Idempotency-Key': 'parallel-15' }),
      ...sent.map((batch) => client.post(BATCH_PATH, { requests: batch })),
    ]);
    expect(alone.status).toBe(200);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(replies[0].body.appliesAtOnce).toBeGreaterThan(1);
    // Every delivery of a key got the same reply: the one id its row has.
    const ids = new Map<string, Set<number>>();
    for (const [b, batch] of sent.entries())
      for (const [i, item] of batch.entries()) {
        const reply = replies[b].body.replies[i];
        expect(reply).toMatchObject({ status: 200, body: { success: true } });
        ids.set(item.key, (ids.get(item.key) ?? new Set()).add(reply.body.id));
      }
    ids.get('parallel-15')?.add(alone.body.id);
    for (const [key, seen] of ids) expect([key, seen.size]).toEqual([key, 1]);
    const { body } = await client.get(C.list, { limit: 1000 });
    const names = body.classes
      .map((c: { class_name: string }) => c.class_name)
      .filter((n: string) => n.startsWith('Parallel '));
    expect(names.length).toBe(40);
    expect(new Set(names).size).toBe(40);
  });
});
