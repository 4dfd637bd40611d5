/**
 * Link fields in the real Add Book form: a link that is not http
 * or https is reported at the field in the server's words when the form is submitted, tied to
 * the control, focus on the first field in error; the report goes once the link is corrected.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, signedInTab } from '../helpers/browser';

const suite = browserSuite();
let page: Page;

signedInTab(suite, (tab) => {
  page = tab.page;
});

describe('link fields', () => {
  it('reports a javascript: link at the field on submit, and lets it go once corrected', async () => {
    await page.goto(`${suite.server.url}/addbooks`);
    const link = page.getByRole('textbox', { name: 'Book Download Link' });
    expect(await link.getAttribute('type')).toBe('url');
    await link.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add Book' }).click();

    const message = 'Book Download Link must be a web address starting with http:// or https://';
    const error = page.locator('.field-error', { hasText: message });
    await expect.poll(() => error.count()).toBe(1);
    expect(await link.getAttribute('aria-invalid')).toBe('true');
    expect(await link.getAttribute('aria-describedby')).toContain(await error.getAttribute('id'));

    await link.fill('https://example.org/book.pdf');
    await expect.poll(() => error.count()).toBe(0);
    expect(await link.getAttribute('aria-invalid')).toBeNull();
  });
});
