/**
 * The offline sign-in's verifier (src/app/offline-sign-in/verifier.ts): the right password
 * matches, a wrong one or another case does not, the stored text holds neither the password
 * nor anything that matches without it, and two verifiers of one password differ by their salt.
 */
import { expect, it } from 'vitest';
import { ITERATIONS, makeVerifier, matchesVerifier } from '../../../src/app/offline-sign-in/verifier';

it('matches the password it was made from, and nothing else', async () => {
  const stored = await makeVerifier('admin123', 1000);
  expect(stored.iterations).toBe(1000);
  expect(JSON.stringify(stored)).not.toContain('admin123');
  expect(await matchesVerifier('admin123', stored)).toBe(true);
  expect(await matchesVerifier('Admin123', stored)).toBe(false);
  expect(await matchesVerifier('', stored)).toBe(false);
  expect(await matchesVerifier('admin123', { ...stored, iterations: 1001 })).toBe(false);
});

it('salts each verifier afresh, and keeps the advised cost by default', async () => {
  const [a, b] = [await makeVerifier('same', 1000), await makeVerifier('same', 1000)];
  expect(a.salt).not.toBe(b.salt);
  expect(a.verifier).not.toBe(b.verifier);
  expect(ITERATIONS).toBeGreaterThanOrEqual(600_000);
});
