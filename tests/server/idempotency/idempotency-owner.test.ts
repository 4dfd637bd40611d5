/**
 * An Idempotency-Key belongs to the administrator who sent it: another
 * administrator's same key is another key (no replay of the first one's reply, no 422,
 * nothing that tells the key exists), alone and in batches. Keys stored before keys had
 * owners (admin_id 0, migration 012) still answer a repeat of their own request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../../server/auth/admin';
import { BATCH_PATH } from '../../../src/contract/batch';
import { classEntity } from '../../../src/contract/entities';
import { api, signedInSuite, signIn } from '../../helpers/server';

const suite = signedInSuite();
const OTHER = { username: 'second-admin', password: 'second-password-1' };
const C = classEntity.api;
let other: ReturnType<typeof api>;

beforeAll(async () => {
  await ensureAdmin(
    (sql, params) => suite.server.query(sql, params && [...params]),
    OTHER.username,
    OTHER.password,
  );
  other = api(suite.server.apiRoot, await signIn(suite.server.apiRoot, OTHER.username, OTHER.password));
});

const names = async () => {
  const { body } = await suite.client.get(C.list, { limit: 100 });
  return (body.classes as { class_name: string }[]).map((c) => c.class_name).sort();
};

describe('an Idempotency-Key is its administrator own', () => {
  it("another administrator's same key runs as a new key, and each one's repeat replays their own", async () => {
    const key = { 'Idempotency-Key': 'shared-key-1' };
    const first = await suite.client.post(C.add, { className: 'Twice' }, key);
    expect(first.status).toBe(200);
    // The very same request under the same key from another administrator: run, not replayed.
    const second = await other.post(C.add, { className: 'Twice' }, key);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    // Each one's repeat gets their own stored reply.
    const firstAgain = await suite.client.post(C.add, { className: 'Twice' }, key);
    expect(firstAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(firstAgain.body).toEqual(first.body);
    const secondAgain = await other.post(C.add, { className: 'Twice' }, key);
    expect(secondAgain.body).toEqual(second.body);
    expect(await names()).toEqual(['Twice', 'Twice']);
  });

  it('another request under a key another administrator used is no 422: nothing tells it exists', async () => {
    const key = { 'Idempotency-Key': 'shared-key-3' };
    await suite.client.post(C.add, { className: 'Mine' }, key);
    const theirs = await other.post(C.add, { className: 'Theirs' }, key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.success).toBe(true);
    // For its own administrator the key is taken: another request under it is a 422.
    expect((await suite.client.post(C.add, { className: 'Mine, changed' }, key)).status).toBe(422);
    expect(await names()).toEqual(expect.arrayContaining(['Mine', 'Theirs']));
  });

  it('a batch item under another administrator’s key runs as a new key', async () => {
    const key = 'shared-key-2';
    await suite.client.post(C.add, { className: 'Alone' }, { 'Idempotency-Key': key });
    const batch = await other.post(BATCH_PATH, {
      requests: [{ method: 'POST', path: C.add, key, json: { className: 'In a batch' } }],
    });
    expect(batch.body.replies[0]).toMatchObject({ status: 200, replayed: false, body: { success: true } });
    expect(await names()).toContain('In a batch');
  });

  it('a key stored before keys had owners answers a repeat of its request, and nothing else', async () => {
    const first = await suite.client.post(
      C.add,
      { className: 'Before the upgrade' },
      { 'Idempotency-Key': 'old-1' },
    );
    // As migration 012 left the replies stored before it: no owner.
    await suite.server.query("UPDATE idempotency_keys SET admin_id = 0 WHERE key = 'old-1'");
    const repeat = await suite.client.post(
      C.add,
      { className: 'Before the upgrade' },
      { 'Idempotency-Key': 'old-1' },
    );
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    // Another request under it is neither refused nor answered from it.
    const another = await other.post(
      C.add,
      { className: 'Under an old key' },
      { 'Idempotency-Key': 'old-1' },
    );
    expect(another.status).toBe(200);
    expect(another.headers.get('idempotent-replayed')).toBeNull();
    const counts = await suite.server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM classes WHERE class_name = 'Before the upgrade'",
    );
    expect(counts[0].n).toBe(1);
  });
});
