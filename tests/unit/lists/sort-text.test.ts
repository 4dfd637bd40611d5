/**
 * sortText (list-engine/order.ts) sorts text by a folded key first and by the collation after:
 * whatever the text, the result is the collation's order, the order the collation alone gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collator, sortSliced, sortText } from '../../../src/db/list-engine/order';

/** Two orders agree when each place holds a value the collation counts equal. */
const sameOrder = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => collator.compare(v, b[i]) === 0);

const pieces = [
  'Zoë',
  'zoe',
  'Zoe',
  'Émile',
  'emile',
  'O’Brien',
  "o'brien",
  'Smith-Jones',
  'smith jones',
  'School 9',
  'School 10',
  'school 009',
  'Ａbc',
  'abc',
  'Øyvind',
  'Ørjan',
  'Åsa',
  'ß',
  'ss',
  'İstanbul',
  'Ελένη',
  'Николай',
  '山田',
  '',
  ' ',
  '10',
  '9',
  'a1b2',
  'a01b10',
];
const text = fc.oneof(
  fc.constantFrom(...pieces),
  fc.string({ maxLength: 8 }),
  fc.tuple(fc.constantFrom(...pieces), fc.nat(200)).map(([p, n]) => `${p} ${n}`),
);

describe('sortText', () => {
  it('gives the collation’s order for any text, shuffled or nearly in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 300 }), fc.boolean(), async (values, presorted) => {
        const input = presorted ? await sortSliced(values, collator.compare) : values;
        const byCollation = await sortSliced(input, collator.compare);
        expect(sameOrder(await sortText(input, collator.compare), byCollation)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('orders when it pauses between slices (as in the list worker)', async () => {
    const values = Array.from(
      { length: 20_000 },
      (_, i) => `${pieces[(i * 7919) % pieces.length]} ${(i * 104729) % 5000}`,
    );
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
    const sorted = await sortText(values, collator.compare, pause);
    expect(sameOrder(sorted, await sortSliced(values, collator.compare))).toBe(true);
  });
});
