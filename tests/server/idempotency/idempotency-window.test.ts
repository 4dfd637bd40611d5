/**
 * Idempotency-Key as the IETF draft has it: the key is bound to a fingerprint of the
 * whole request (method, path, query, body, files by content); a repeat gets the stored reply,
 * a reuse for another request a 422 that writes nothing. Stored replies are kept for the
 * retention window (IDEMPOTENCY_RETENTION_DAYS, 60 by default) and then pruned by the server:
 * tested without waiting, by backdating a stored reply.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_DAYS, pruneKeys } from '../../../server/api/idempotency';
import { bookEntity, classEntity } from '../../../src/contract/entities';
import { snapshotServer } from '../../helpers/db-snapshot';
import { pngFile } from '../../helpers/files';
import { signedInSuite, startTestServer } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const P = classEntity.api;
const reused = { success: false, message: 'Idempotency-Key reused for a different request' };

/** A snapshot that leaves the stored replies out, as a 422 is not stored either way. */
const snapshot = () => snapshotServer(suite.server);

async function storedKey(key: string) {
  const [row] = await suite.server.query<{ key: string; status: number }>(
    'SELECT key, status FROM idempotency_keys WHERE key = $1',
    [key],
  );
  return row;
}

describe('the key is bound to the whole request', () => {
  it('an update: another body or another query is a 422 and the record stays as the first request left it', async () => {
    const key = { 'Idempotency-Key': 'update-bound-1' };
    const first = await suite.client.post(P.update, { class_id: 2, className: 'Bound update' }, key);
    expect(first.status).toBe(200);
    const before = await snapshot();
    const otherBody = await suite.client.post(P.update, { class_id: 2, className: 'Second update' }, key);
    expect(otherBody).toMatchObject({ status: 422, body: reused });
    const otherId = await suite.client.post(P.update, { class_id: 3, className: 'Bound update' }, key);
    expect(otherId).toMatchObject({ status: 422, body: reused });
    const otherQuery = await suite.client.post(
      `${P.update}?class_id=3`,
      { class_id: 2, className: 'Bound update' },
      key,
    );
    expect(otherQuery).toMatchObject({ status: 422, body: reused });
    expect(await snapshot()).toEqual(before);

    // The very same request again (keys in another order) is answered from the store.
    const again = await suite.client.post(P.update, { className: 'Bound update', class_id: 2 }, key);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await snapshot()).toEqual(before);
  });

  it('a multipart add: the same fields with another file is another request (files count by content)', async () => {
    const book = (cover: File) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        selectedClass: '1',
        selectedSubject: '1',
        selectedSeries: '1',
        bookName: 'Keyed book',
        bookCode: 'KB-1',
      }))
        form.set(k, v);
      form.set('bookCover', cover);
      return form;
    };
    const key = { 'Idempotency-Key': 'multipart-bound-1' };
    const first = await suite.client.post(bookEntity.api.add, book(pngFile('cover.png', 300)), key);
    expect(first.status).toBe(200);
    const before = await snapshot();
    const otherFile = await suite.client.post(bookEntity.api.add, book(pngFile('cover.png', 301)), key);
    expect(otherFile).toMatchObject({ status: 422, body: reused });
    // Same content under another file name: the same request.
    const sameContent = await suite.client.post(bookEntity.api.add, book(pngFile('renamed.png', 300)), key);
    expect(sameContent).toMatchObject({ status: 200, body: first.body });
    expect(sameContent.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await snapshot()).toEqual(before);
  });

  it('a batch item and the same request sent alone share the key', async () => {
    const key = 'batch-alone-1';
    const batch = await suite.client.post('sync/batch', {
      requests: [{ method: 'POST', path: P.add, key, json: { className: 'Batched once' } }],
    });
    expect(batch.body.replies[0]).toMatchObject({ status: 200, replayed: false });
    const before = await snapshot();
    const alone = await suite.client.post(P.add, { className: 'Batched once' }, { 'Idempotency-Key': key });
    expect(alone).toMatchObject({ status: 200, body: batch.body.replies[0].body });
    expect(alone.headers.get('Idempotent-Replayed')).toBe('true');
    const otherItem = await suite.client.post('sync/batch', {
      requests: [{ method: 'POST', path: P.add, key, json: { className: 'Batched twice' } }],
    });
    expect(otherItem.body.replies[0]).toMatchObject({ status: 422, body: reused });
    expect(await snapshot()).toEqual(before);
  });
});

describe('stored replies are kept for the retention window, then pruned', () => {
  it(`keeps a reply younger than ${DEFAULT_RETENTION_DAYS} days and prunes an older one`, async () => {
    await suite.client.post(P.add, { className: 'Old keyed' }, { 'Idempotency-Key': 'old-key-1' });
    await suite.client.post(P.add, { className: 'Recent keyed' }, { 'Idempotency-Key': 'recent-key-1' });
    await suite.server.query(
      "UPDATE idempotency_keys SET created_at = now() - make_interval(days => $1) WHERE key = 'old-key-1'",
      [DEFAULT_RETENTION_DAYS + 1],
    );
    await suite.server.query(
      "UPDATE idempotency_keys SET created_at = now() - make_interval(days => $1) WHERE key = 'recent-key-1'",
      [DEFAULT_RETENTION_DAYS - 1],
    );

    // Within the window, a retry after weeks offline is still answered from the store.
    const retry = await suite.client.post(
      P.add,
      { className: 'Recent keyed' },
      { 'Idempotency-Key': 'recent-key-1' },
    );
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');

    const pruned = await pruneKeys(
      (sql, params) => suite.server.query(sql, params ? [...params] : []),
      DEFAULT_RETENTION_DAYS,
    );
    expect(pruned).toBe(1);
    expect(await storedKey('old-key-1')).toBeUndefined();
    expect(await storedKey('recent-key-1')).toMatchObject({ status: 200 });
  });

  it('the server prunes at start, with the IDEMPOTENCY_RETENTION_DAYS it was given', async () => {
    const server = await startTestServer({ settings: { idempotencyRetentionDays: 30 } });
    try {
      const stale = (days: number, key: string) =>
        server.query(
          `INSERT INTO idempotency_keys (admin_id, key, fingerprint, status, reply, created_at)
           VALUES (0, $1, 'sha256:x', 200, '{"success":true}', now() - make_interval(days => $2))`,
          [key, days],
        );
      await stale(31, 'older-than-30');
      await stale(29, 'younger-than-30');
      await server.restart();
      // Pruning runs beside the start (it never delays it): wait for it, bounded.
      const gone = async () =>
        (await server.query("SELECT 1 FROM idempotency_keys WHERE key = 'older-than-30'")).length === 0;
      for (let i = 0; i < 200 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await gone()).toBe(true);
      expect(await server.query("SELECT 1 FROM idempotency_keys WHERE key = 'younger-than-30'")).toHaveLength(
        1,
      );
    } finally {
      await server.close();
    }
  }, 120_000);
});
