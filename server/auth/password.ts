/**
 * Password hashing with node:crypto's scrypt (memory-hard, no dependency). Stored form:
 * `scrypt$N$r$p$salt$hash` (base64), so the cost can be raised later without breaking old hashes.
 * New hashes are derived in the hash pool's threads (hash-pool.ts), side by side up to one per
 * core; a verification, which someone signing in waits for, on libuv's threadpool.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { hashPool, scryptMaxmem } from './hash-pool';

/**
 * PASSWORD_HASH_N: scrypt's N for new hashes, a power of two from 1024 (default 16384). The
 * test suites lower it: they sign in and store passwords thousands of times, and nothing they
 * check depends on the cost. A stored hash carries its own cost, so verifying never reads this.
 */
function costN(given: string | undefined): number {
  if (given === undefined || given === '') return 16384;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1024 || n > 1_048_576 || (n & (n - 1)) !== 0)
    throw new Error(`PASSWORD_HASH_N must be a power of two from 1024 to 1048576, not '${given}'`);
  return n;
}

/** The cost of new hashes: r=8, p=1 and N of at least 2^14 (the bench measures one's CPU time). */
export const COST = { N: costN(process.env.PASSWORD_HASH_N), r: 8, p: 1 };
export const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const withMem = { ...options, maxmem: scryptMaxmem(options) };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, withMem, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await hashPool().derive({ password, salt, keyLength: KEY_LENGTH, ...COST });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  // Constant-time comparison: the time taken must not tell how many bytes matched.
  return key.length === expected.length && timingSafeEqual(key, expected);
}
