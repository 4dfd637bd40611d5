/**
 * Hashes at a cost above node's default memory ceiling (scrypt needs 128·N·r bytes; 32 MiB
 * refuses N=2^15 and up): the hash pool derives them and a verification reads them, so
 * PASSWORD_HASH_N can be raised to OWASP's N=2^17.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPool } from '../../../server/auth/hash-pool';
import { verifyPassword } from '../../../server/auth/password';

describe('password cost', () => {
  it('derives and verifies a hash at N=2^17, r=8, p=1', async () => {
    const salt = randomBytes(16);
    const cost = { N: 131_072, r: 8, p: 1 };
    const key = await hashPool().derive({ password: 'a long pass phrase', salt, keyLength: 64, ...cost });
    const stored = ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join(
      '$',
    );
    expect(await verifyPassword('a long pass phrase', stored)).toBe(true);
    expect(await verifyPassword('another pass phrase', stored)).toBe(false);
  });

  it('runs as many hashes at once as the process may use cores', () => {
    expect(hashPool().size).toBe(availableParallelism());
  });
});
