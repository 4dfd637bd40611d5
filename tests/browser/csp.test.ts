/**
 * The built app under the server's Content-Security-Policy (server/http/headers.ts), in
 * Chromium: it loads, signs in, lists, saves through forms, opens the rich-text editor
 * (whose injected <style> the policy allows by hash), previews a chosen cover from a Blob,
 * and the browser reports no violation while doing so. An inline script, which the policy
 * forbids, is refused and reported: the policy is really in force.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookEntity, classEntity, seriesEntity, subjectEntity } from '../../src/contract/entities';
import { browserSuite, nameCells, signInWithForm } from '../helpers/browser';
import { api, serverTitles, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;
/** Every CSP violation: the pages' securitypolicyviolation events and console reports. */
const violations: string[] = [];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(0)]);

beforeAll(async () => {
  context = await suite.browser.newContext();
  // Runs before the app's scripts, outside the page's CSP (injected by the browser).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  context.on('console', (msg) => {
    if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text());
  });
  page = await context.newPage();
  // Parents for the book form, made through the API.
  const client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const cls = await client.post(classEntity.api.add, { className: 'Class CSP' });
  const subject = await client.post(subjectEntity.api.add, {
    subjectName: 'Policy',
    subjectContent: '<p>x</p>',
  });
  await client.post(seriesEntity.api.add, {
    seriesName: 'Strict',
    selectedClass: cls.body.id,
    selectedSubject: subject.body.id,
  });
});

async function open(path: string, heading: string): Promise<void> {
  await page.goto(`${suite.server.url}${path}`);
  await expect.poll(() => page.getByRole('heading', { name: heading }).count()).toBe(1);
}

async function choose(label: string, option: string): Promise<void> {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await expect.poll(() => select.locator('option', { hasText: option }).count()).toBeGreaterThan(0);
  await select.selectOption({ label: option });
}

describe('the built app under its Content-Security-Policy', () => {
  it('is served with the policy', async () => {
    const res = await fetch(`${suite.server.url}/login`);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });

  it('signs in, lists and saves through the screens, rich text and a cover preview included, without a violation', async () => {
    await signInWithForm(page, suite.server.url);

    await open('/addclasses', 'Add Class');
    await page.getByLabel('Class Name').fill('Class Allowed');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes(\?|$)/);
    await expect.poll(() => nameCells(page, 'Class Allowed').count()).toBe(1);

    await open('/addsubjects', 'Add Subject');
    await page.getByLabel('Subject Name').fill('Styled');
    const editor = page.getByRole('textbox', { name: 'Subject Content' });
    await editor.click();
    await page.keyboard.type('Bold words');
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: 'Bold' }).click();
    // TipTap's injected <style> is in force (it sets white-space on the editable area).
    expect(await editor.evaluate((el) => getComputedStyle(el).whiteSpace)).toMatch(/break-spaces|pre-wrap/);
    await page.getByRole('button', { name: 'Add Subject' }).click();
    await page.waitForURL(/\/subjects(\?|$)/);

    await open('/addbooks', 'Add Book');
    await choose('Class', 'Class CSP');
    await choose('Subject', 'Policy');
    await choose('Series', 'Strict');
    await page.getByLabel('Book Name').fill('Allowed Book');
    await page.getByLabel('Book Code').fill('AB-1');
    await page
      .getByLabel('Book Cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => page.getByRole('img', { name: 'Chosen Book Cover' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Add Book' }).click();
    await page.waitForURL(/\/books(\?|$)/);

    await expect.poll(() => serverTitles(suite.server.apiRoot, classEntity)).toContain('Class Allowed');
    await expect.poll(() => serverTitles(suite.server.apiRoot, subjectEntity)).toContain('Styled');
    await expect.poll(() => serverTitles(suite.server.apiRoot, bookEntity)).toContain('Allowed Book');
    const subjects = await api(suite.server.apiRoot, await signIn(suite.server.apiRoot)).get(
      subjectEntity.api.list,
    );
    const styled = subjects.body.subjects.find((s: { subject_name: string }) => s.subject_name === 'Styled');
    expect(styled.subject_content).toContain('<strong>');

    // After sync the list shows the cover from the server's upload folder.
    await open('/books', 'Books');
    await expect
      .poll(() => page.locator('img[src*="/api/uploads/book_cover/"]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });

  it('refuses an inline script (the policy is enforced, and violations would be seen)', async () => {
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.head.append(s);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
  });
});
