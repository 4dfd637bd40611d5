/**
 * Whether a secret someone sent is the one expected, in constant time. Compared as bytes: a
 * text of the same length in characters but not in bytes is simply not equal (timingSafeEqual
 * throws on buffers of different lengths).
 */
import { timingSafeEqual } from 'node:crypto';

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
