/**
 * The batch extension: items run as if sent alone (same replies, same Idempotency-Key
 * handling) inside one transaction, a 5xx item rolls back alone, and what cannot be batched
 * or parsed is refused whole with nothing applied.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app/create-app';
import { ensureAdmin } from '../../../server/auth/admin';
import { openDatabase } from '../../../server/db';
import { BATCH_PATH } from '../../../src/contract/batch';
import { bookEntity, classEntity } from '../../../src/contract/entities';
import { api, signedInSuite, signIn, startTestServer } from '../../helpers/server';
import { form, sampleFile, storedFiles } from '../support/files';

const C = classEntity.api;
const B = bookEntity.api;
const suite = signedInSuite({ seedDemo: true });

const addClass = (name: string, key: string) => ({
  method: 'POST',
  path: C.add,
  key,
  json: { className: name },
});

async function namesLike(prefix: string): Promise<string[]> {
  const { body } = await suite.client.get(C.list, { limit: 1000 });
  return body.classes
    .map((c: { class_name: string }) => c.class_name)
    .filter((n: string) => n.startsWith(prefix));
}

describe('batch extension', () => {
  it('answers each item as its single request would, in order, and applies each once', async () => {
    const requests = [
      addClass('Batch A', 'batch-a'),
      addClass('Batch B', 'batch-b'),
      { method: 'GET', path: C.get, query: { class_id: 1 } },
    ];
    const first = await suite.client.post(BATCH_PATH, { requests });
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    const [a, b, got] = first.body.replies;
    expect(a).toMatchObject({ status: 200, replayed: false, body: { success: true } });
    expect(typeof a.body.id).toBe('number');
    expect(b.body.id).not.toBe(a.body.id);
    expect(got).toMatchObject({ status: 200, body: { success: true, class: { class_id: 1 } } });

    // The same batch again (its reply lost): every write answered from the stored replies.
    const again = await suite.client.post(BATCH_PATH, { requests });
    expect(again.body.replies.slice(0, 2)).toEqual([
      { ...a, replayed: true },
      { ...b, replayed: true },
    ]);
    expect((await namesLike('Batch ')).sort()).toEqual(['Batch A', 'Batch B']);

    // A key first used alone is replayed inside a batch too, and the other way round.
    const alone = await suite.client.post(C.add, { className: 'Batch C' }, { 'Idempotency-Key': 'batch-c' });
    const inBatch = await suite.client.post(BATCH_PATH, { requests: [addClass('Batch C', 'batch-c')] });
    expect(inBatch.body.replies[0]).toEqual({ status: 200, body: alone.body, replayed: true });
    const resent = await suite.client.post(C.add, { className: 'Batch A' }, { 'Idempotency-Key': 'batch-a' });
    expect(resent.body).toEqual(a.body);
    expect(resent.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await namesLike('Batch ')).sort()).toEqual(['Batch A', 'Batch B', 'Batch C']);
  });

  it("keeps a refused item's reply apart: the others commit, the refusal is stored", async () => {
    const requests = [addClass('Mixed ok', 'mixed-1'), addClass('', 'mixed-2')];
    const { body } = await suite.client.post(BATCH_PATH, { requests });
    expect(body.replies[0]).toMatchObject({ status: 200, body: { success: true } });
    expect(body.replies[1]).toMatchObject({
      status: 400,
      body: { success: false, message: expect.any(String) },
      replayed: false,
    });
    const { body: again } = await suite.client.post(BATCH_PATH, {
      requests: [addClass('Mixed ok', 'mixed-1'), addClass('', 'mixed-2')],
    });
    expect(again.replies[1]).toEqual({ ...body.replies[1], replayed: true });
    // The key is bound to its request: another body under it writes nothing.
    const { body: reused } = await suite.client.post(BATCH_PATH, {
      requests: [addClass('Now valid', 'mixed-2')],
    });
    expect(reused.replies[0]).toMatchObject({ status: 422, replayed: false });
    expect(await namesLike('Mixed')).toEqual(['Mixed ok']);
    expect(await namesLike('Now valid')).toEqual([]);
  });

  it('treats keys within and across batches as single requests do: repeats, reuse, bad keys', async () => {
    const other = { method: 'POST', path: C.remove, key: 'same-key', json: { class_id: 1 } };
    const { body } = await suite.client.post(BATCH_PATH, {
      requests: [
        addClass('Same key', 'same-key'),
        addClass('Same key', 'same-key'),
        other,
        addClass('Bad', ' '),
      ],
    });
    expect(body.replies[0]).toMatchObject({ status: 200, replayed: false });
    expect(body.replies[1]).toEqual({ ...body.replies[0], replayed: true });
    expect(body.replies[2]).toMatchObject({
      status: 422,
      body: { success: false, message: 'Idempotency-Key reused for a different request' },
    });
    expect(body.replies[3]).toMatchObject({ status: 400, body: { message: 'Invalid Idempotency-Key' } });
    expect(await namesLike('Same key')).toEqual(['Same key']);
    expect((await suite.client.get(C.get, { class_id: 1 })).status).toBe(200);
  });

  it('adds one row when batches carrying the same keys arrive together', async () => {
    const requests = Array.from({ length: 20 }, (_, i) => addClass(`Together ${i}`, `together-${i}`));
    const replies = await Promise.all([
      suite.client.post(BATCH_PATH, { requests }),
      suite.client.post(BATCH_PATH, { requests: [...requests].reverse().slice(0, 10) }),
      suite.client.post(C.add, { className: 'Together 3' }, { 'Idempotency-Key': 'together-3' }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    // PGlite runs one transaction at a time, PostgreSQL several: the client is told which.
    if (suite.server.databaseUrl) expect(replies[0].body.appliesAtOnce).toBeGreaterThan(1);
    else expect(replies[0].body.appliesAtOnce).toBe(1);
    const ids = new Map<string, number>();
    for (const reply of replies.slice(0, 2))
      for (const item of reply.body.replies)
        expect(item).toMatchObject({ status: 200, body: { success: true } });
    replies[0].body.replies.forEach((item: { body: { id: number } }, i: number) => {
      ids.set(`together-${i}`, item.body.id);
    });
    replies[1].body.replies.forEach((item: { body: { id: number } }, i: number) => {
      expect(item.body.id).toBe(ids.get(`together-${19 - i}`));
    });
    expect(replies[2].body.id).toBe(ids.get('together-3'));
    expect((await namesLike('Together ')).length).toBe(20);
  });

  it('carries form-encoded items like multipart ones without files', async () => {
    const book = {
      selectedClass: '1',
      selectedSubject: '1',
      selectedSeries: '1',
      bookName: 'Form batch book',
      bookCode: 'FB-1',
    };
    const { body } = await suite.client.post(BATCH_PATH, {
      requests: [{ method: 'POST', path: B.add, key: 'form-book', form: Object.entries(book) }],
    });
    expect(body.replies[0]).toMatchObject({ status: 200, body: { success: true } });
    const { body: got } = await suite.client.get(B.get, { book_id: body.replies[0].body.id });
    expect(got.book).toMatchObject({ book_name: 'Form batch book', book_code: 'FB-1', book_cover: null });
  });

  it("removes a deleted book's cover once the batch has committed", async () => {
    const added = await suite.client.post(
      B.add,
      form({
        selectedClass: 1,
        selectedSubject: 1,
        selectedSeries: 1,
        bookName: 'Covered',
        bookCode: 'CV-1',
        bookCover: sampleFile('png', 'c.png'),
      }),
    );
    const { body: got } = await suite.client.get(B.get, { book_id: added.body.id });
    const covers = () => storedFiles(suite.server.storage, 'book_cover');
    expect(await covers()).toContain(got.book.book_cover);
    const { body } = await suite.client.post(BATCH_PATH, {
      requests: [{ method: 'POST', path: B.remove, key: 'del-covered', json: { book_id: added.body.id } }],
    });
    expect(body.replies[0]).toMatchObject({ status: 200, body: { success: true } });
    expect(await covers()).not.toContain(got.book.book_cover);
  });

  it('refuses a batch that is malformed, too long or carries other requests, applying nothing', async () => {
    const refusals = [
      [{ requests: [] }, /^Malformed batch/],
      [{ requests: [addClass('Refused 1', 'r1'), { method: 'PUT', path: C.add }] }, /^Malformed batch/],
      [
        { requests: Array.from({ length: 101 }, (_, i) => addClass(`Refused many ${i}`, `rm-${i}`)) },
        /^Malformed batch/,
      ],
      [{ requests: [addClass('Refused 2', 'r2'), { method: 'GET', path: C.list }] }, /may only carry/],
      [
        { requests: [addClass('Refused 3', 'r3'), { method: 'POST', path: BATCH_PATH, json: {} }] },
        /may only carry/,
      ],
      ['{"requests": [', /^Malformed JSON/],
    ] as const;
    for (const [body, message] of refusals) {
      const reply = await suite.client.post(BATCH_PATH, body);
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toMatch(message);
    }
    expect(await namesLike('Refused')).toEqual([]);
  });

  it('needs a session', async () => {
    const anonymous = api(suite.server.apiRoot);
    const reply = await anonymous.post(BATCH_PATH, { requests: [addClass('No session', 'ns-1')] });
    expect(reply).toMatchObject({ status: 401, body: { success: false, message: 'Please sign in' } });
    expect(await namesLike('No session')).toEqual([]);
  });

  it('does not exist in legacy mode, like the PHP API', async () => {
    const legacy = await startTestServer({ legacy: true });
    try {
      const client = api(legacy.apiRoot, await signIn(legacy.apiRoot));
      const reply = await client.post(BATCH_PATH, { requests: [addClass('Legacy batch', 'lb-1')] });
      expect(reply.status).toBe(404);
      const { body } = await client.get(C.list);
      expect(body.classes.map((c: { class_name: string }) => c.class_name)).not.toContain('Legacy batch');
    } finally {
      await legacy.close();
    }
  });
});

describe('batch extension: an item that fails half-way', () => {
  it('rolls back only that item, whose key stays free for its retry', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      // A fault only the database knows about: adding a class named 'Boom' fails inside the
      // insert, after the item's key was claimed.
      await db.query(`
        CREATE FUNCTION boom() RETURNS trigger AS $$
        BEGIN
          IF NEW.class_name = 'Boom' THEN RAISE EXCEPTION 'boom'; END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql;
        CREATE TRIGGER boom BEFORE INSERT ON classes FOR EACH ROW EXECUTE FUNCTION boom();
      `);
      await ensureAdmin(db.query, 'admin', 'admin123');
      const app = createApp({ db, storage: suite.server.storage });
      const login = await app.request('/api/Admin_access/login.php', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin123' }),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0];
      const post = async (body: unknown) =>
        (
          await app.request(`/api/${BATCH_PATH}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Cookie: cookie },
            body: JSON.stringify(body),
          })
        ).json();
      const quiet = console.error;
      console.error = () => {};
      const first = await post({
        requests: [addClass('Before', 'h-1'), addClass('Boom', 'h-2'), addClass('After', 'h-3')],
      });
      console.error = quiet;
      expect(first.replies.map((r: { status: number }) => r.status)).toEqual([200, 500, 200]);
      expect(first.replies[1].body).toEqual({ success: false, message: 'Internal server error' });

      // The retry of the failed item runs it afresh (its key was rolled back with it).
      await db.query('DROP TRIGGER boom ON classes');
      const retry = await post({ requests: [addClass('Boom', 'h-2')] });
      expect(retry.replies[0]).toMatchObject({ status: 200, replayed: false, body: { success: true } });
      const rows = await db.query<{ class_name: string }>('SELECT class_name FROM classes ORDER BY class_id');
      expect(rows.map((r) => r.class_name)).toEqual(['Before', 'After', 'Boom']);
    } finally {
      await db.close();
    }
    // It opens a database of its own, like a hook.
  }, 120_000);
});
