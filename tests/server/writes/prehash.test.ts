/**
 * New passwords of a request are hashed side by side before its transaction (server/api/
 * prehash.ts, server/auth/prehashed.ts): every hash of a batch is asked of the hash pool at
 * once, each row still gets a hash of its own (its own salt) that verifies, a replayed batch
 * hashes nothing again, and a batch that runs again item by item (a refused item) reuses the
 * hashes it made.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPool, type ScryptTask } from '../../../server/auth/hash-pool';
import { verifyPassword } from '../../../server/auth/password';
import { BATCH_PATH } from '../../../src/contract/batch';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const ADD = 'Users/Students/addstudents.php';
const place = { contactNumber: '9876543210', country: 'IN', state: 'MH', city: 'Pune', zipcode: '411001' };

const addStudent = (name: string, password: string, key: string, email = `${key}@prehash.example`) => ({
  method: 'POST',
  path: ADD,
  key,
  json: { studentName: name, email, password, school: 1, ...place },
});

/** Counts the hash pool's derivations, and how many were asked for and not yet answered at most. */
function watchPool() {
  const pool = hashPool();
  const original = pool.derive.bind(pool);
  const seen = { calls: 0, inFlight: 0, most: 0 };
  vi.spyOn(pool, 'derive').mockImplementation(async (task: ScryptTask) => {
    seen.calls += 1;
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    try {
      return await original(task);
    } finally {
      seen.inFlight -= 1;
    }
  });
  return seen;
}

const storedHash = async (name: string) =>
  (
    await suite.server.query<{ password: string }>('SELECT password FROM students WHERE student_name = $1', [
      name,
    ])
  ).map((row) => row.password);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('passwords hashed before the transaction', () => {
  it('asks for every hash of a batch at once, one per row, each verifying', async () => {
    const seen = watchPool();
    const requests = [1, 2, 3, 4].map((i) => addStudent(`Prehash ${i}`, 'same-secret-1', `prehash-${i}`));
    const { body } = await suite.client.post(BATCH_PATH, { requests });
    expect(body.replies.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200]);
    expect(seen.calls).toBe(4);
    expect(seen.most).toBe(4);
    const hashes = (await Promise.all([1, 2, 3, 4].map((i) => storedHash(`Prehash ${i}`)))).flat();
    expect(hashes).toHaveLength(4);
    // The same password, four salts: no two rows share a hash.
    expect(new Set(hashes).size).toBe(4);
    for (const hash of hashes) expect(await verifyPassword('same-secret-1', hash)).toBe(true);

    // The same batch again (its reply lost): answered from the stored replies, nothing hashed.
    const again = watchPool();
    const { body: replayed } = await suite.client.post(BATCH_PATH, { requests });
    expect(replayed.replies.every((r: { replayed: boolean }) => r.replayed)).toBe(true);
    expect(again.calls).toBe(0);
  });

  it('keeps its hashes when the batch runs again item by item after a refusal', async () => {
    const seen = watchPool();
    const requests = [
      addStudent('Rerun A', 'rerun-secret-a', 'rerun-a'),
      addStudent('Rerun B', 'rerun-secret-b', 'rerun-b', 'rerun-a@prehash.example'),
      addStudent('Rerun C', 'rerun-secret-c', 'rerun-c'),
    ];
    const { body } = await suite.client.post(BATCH_PATH, { requests });
    expect(body.replies.map((r: { status: number }) => r.status)).toEqual([200, 409, 200]);
    expect(seen.calls).toBe(3);
    const [a] = await storedHash('Rerun A');
    const [c] = await storedHash('Rerun C');
    expect(await storedHash('Rerun B')).toEqual([]);
    expect(await verifyPassword('rerun-secret-a', a)).toBe(true);
    expect(await verifyPassword('rerun-secret-c', c)).toBe(true);
    expect(await verifyPassword('rerun-secret-b', c)).toBe(false);
  });

  it('hashes a password sent alone once, before its transaction', async () => {
    const seen = watchPool();
    const added = await suite.client.post(ADD, addStudent('Alone', 'alone-secret', 'alone').json, {
      'Idempotency-Key': 'alone',
    });
    expect(added.body.success).toBe(true);
    expect(seen.calls).toBe(1);
    const [hash] = await storedHash('Alone');
    expect(await verifyPassword('alone-secret', hash)).toBe(true);
  });
});
