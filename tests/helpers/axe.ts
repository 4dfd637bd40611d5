/**
 * axe-core with the WCAG 2.2 A and AA rules, as every browser suite runs it.
 *
 * Legacy mode runs axe in the page itself: the default (runPartial) opens a blank page of the
 * context for each check to join the frames' results, which cost more than the rules
 * themselves (about 1.7 s a check against 0.9 s) and buys nothing here, where no screen has a
 * frame (the content security policy allows none).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export interface AxeFindings {
  /** Each violation as `what: rule (impact) help: the first three elements`. */
  violations: string[];
  /** How many rules passed (a rule that passed is named once, whatever it checked). */
  passed: number;
}

export async function axeFindings(page: Page, what = 'page'): Promise<AxeFindings> {
  // Only violations are reported node by node; a passing rule is named with one node, which
  // spares axe listing every element it passed. (options() replaces what withTags() set, so
  // it comes first.)
  const result = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG_22_AA)
    .analyze();
  return {
    passed: result.passes.length,
    violations: result.violations.map(
      (v) =>
        `${what}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    ),
  };
}
