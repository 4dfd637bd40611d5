/**
 * The first load's budget (DEVELOPERS.md): at most 140 KB of JavaScript and 15 KB of CSS,
 * gzip, for sign-in and the dashboard. Sizes, not timings: the build in dist/ (made by
 * `npm test` before the tests) either fits or does not. Heavy parts must load on demand.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { BUDGET, measureBundle } from '../../scripts/bundle-size.mjs';
import { DIST } from '../helpers/browser';

describe('bundle budget', () => {
  const m = measureBundle(DIST);

  it('keeps the initial JavaScript within 140 KB gzip', () => {
    expect(m.initialJsGzip).toBeLessThanOrEqual(BUDGET.initialJsGzip);
  });

  it('keeps the CSS within 15 KB gzip', () => {
    expect(m.cssGzip).toBeLessThanOrEqual(BUDGET.cssGzip);
  });

  it('loads the rich-text editor and the list and form screens on demand', () => {
    const initial = m.initialFiles.map((f: { file: string }) => f.file).join(' ');
    expect(initial).not.toMatch(/RichTextField|ListScreen|FormScreen|outbox/);
    expect(m.lazyFiles.some((f: { file: string }) => /RichTextField/.test(f.file))).toBe(true);
  });
});
