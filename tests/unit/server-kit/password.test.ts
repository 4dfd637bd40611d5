/**
 * Stored passwords carry their own scrypt cost: a hash made at one PASSWORD_HASH_N verifies
 * whatever the setting later is, and a setting that is not a power of two from 1024 is refused.
 */
import { scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

const load = async (n: string | undefined) => {
  vi.resetModules();
  if (n === undefined) delete process.env.PASSWORD_HASH_N;
  else process.env.PASSWORD_HASH_N = n;
  return import('../../../server/auth/password');
};

afterEach(() => {
  delete process.env.PASSWORD_HASH_N;
  vi.resetModules();
});

describe('password hashes', () => {
  it('are made at PASSWORD_HASH_N (16384 by default) and verify at any later setting', async () => {
    const cheap = await (await load('1024')).hashPassword('correct horse');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    const standard = await load(undefined);
    const strong = await standard.hashPassword('correct horse');
    expect(strong).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await standard.verifyPassword('correct horse', cheap)).toBe(true);
    expect(await standard.verifyPassword('wrong horse', cheap)).toBe(false);
    expect(await (await load('2048')).verifyPassword('correct horse', strong)).toBe(true);
    // The stored key is scrypt's own, at the stored cost.
    const [, , , , salt, key] = cheap.split('$');
    const derived = scryptSync('correct horse', Buffer.from(salt, 'base64'), 64, { N: 1024, r: 8, p: 1 });
    expect(derived.toString('base64')).toBe(key);
  });

  it('refuses a cost that is not a power of two from 1024 to 1048576', async () => {
    for (const bad of ['1000', '512', 'lots', '2097152'])
      await expect(load(bad), bad).rejects.toThrow(/PASSWORD_HASH_N must be a power of two/);
  });
});
