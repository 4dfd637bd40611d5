/**
 * Forms and lists in Chromium against the built app and a seeded server: problems
 * shown at each field with focus on the first (the chapter form keeps the spec's sentence, now
 * with a summary linking to the fields); the new record shown after an add, on its page and
 * marked, online and offline; selects whose options would read the same told apart by their
 * parents; the file input's name, preview and drop; Units' default order shown before any
 * click; an empty list or search without page buttons; Password marked required on an add form
 * only (an edit form keeps the current one when it is left empty); a form's draft kept through
 * Back, Forward and a reload until it is discarded, cancelled or saved.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTED, DIST, launchBrowser, signInWithForm } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { LANDSCAPE, openScreen, tabletContext } from '../helpers/tablet';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  context = await tabletContext(browser, LANDSCAPE);
  page = await context.newPage();
  await signInWithForm(page, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
/** Whether an element lies inside the visible part of the scrolling screen. */
const inView = (selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const main = document.getElementById('main');
    if (!el || !main) return false;
    const r = el.getBoundingClientRect();
    const m = main.getBoundingClientRect();
    return r.top >= m.top - 1 && r.bottom <= m.bottom + 1;
  }, selector);

describe('problems at the fields', () => {
  it('marks every missing field of Add Chapter, focuses the first, and links to each from the spec’s sentence', async () => {
    await openScreen(page, server.url, '/addchapters');
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    const sentence = page.getByRole('alert').filter({ hasText: 'Please fill in all required fields' });
    await expect.poll(() => sentence.textContent()).toBe('Please fill in all required fields');
    expect(await focusedId()).toBe('field-class_id');
    expect(await inView('#field-class_id')).toBe(true);

    for (const [label, id] of [
      ['Class', 'class_id'],
      ['Subject', 'subject_id'],
      ['Series', 'series_id'],
      ['Book', 'book_id'],
    ]) {
      const select = page.getByRole('combobox', { name: label, exact: true });
      expect(await select.getAttribute('aria-invalid'), label).toBe('true');
      expect(await select.getAttribute('aria-describedby'), label).toBe(`field-${id}-error`);
      expect(await page.locator(`#field-${id}-error`).textContent()).toBe(`${label} is required`);
    }
    const name = page.getByRole('textbox', { name: 'Chapter Name' });
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.getByRole('combobox', { name: 'Section', exact: true }).getAttribute('aria-invalid'),
    ).toBe(null);

    // The summary links to each field.
    await page.locator('.error-summary').getByRole('link', { name: 'Chapter Name is required' }).click();
    expect(await focusedId()).toBe('field-chapter_title');
    // Correcting a field clears its problem only.
    await name.fill('Shapes');
    expect(await name.getAttribute('aria-invalid')).toBe(null);
    expect(
      await page.getByRole('combobox', { name: 'Class', exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');
  });

  it('on a short form, shows the problem at its field only and focuses it', async () => {
    await openScreen(page, server.url, '/addclasses');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect.poll(focusedId).toBe('field-class_name');
    expect(await page.getByLabel('Class Name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-class_name-error').textContent()).toBe('Class Name is required');
    expect(await page.locator('.error-summary').count()).toBe(0);
    expect(page.url()).toMatch(/\/addclasses$/);
  });
});

describe('required marks', () => {
  /** The labels of the form's fields that carry the required mark. */
  const marked = () =>
    page
      .locator('form label')
      .evaluateAll((labels) =>
        labels.filter((l) => l.textContent?.endsWith(' *')).map((l) => l.textContent?.slice(0, -2)),
      );

  it('marks Password required on Add Teacher, and not on the edit form that keeps it when left empty', async () => {
    await openScreen(page, server.url, '/addteachers');
    expect(await marked()).toContain('Password');
    expect(await marked()).toContain('Teacher Name');

    await openScreen(page, server.url, '/teachers');
    await page.locator('tbody').getByRole('link', { name: 'Edit' }).first().click();
    await page.getByText('Leave empty to keep the current password.').waitFor();
    expect(await marked()).not.toContain('Password');
    expect(await marked()).toContain('Teacher Name');
  });
});

describe('text limits', () => {
  it('says the limit under the field, never cuts what is pasted, and refuses a longer value at the field', async () => {
    await openScreen(page, server.url, '/addclasses');
    const name = page.getByLabel('Class Name');
    expect(await page.locator('#field-class_name-hint').textContent()).toBe('At most 255 characters.');
    await name.fill('x'.repeat(300));
    expect((await name.inputValue()).length).toBe(300);
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect
      .poll(() => page.locator('#field-class_name-error').textContent())
      .toBe('Class Name is too long: at most 255 characters');
    expect((await name.inputValue()).length).toBe(300);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/classes/);
  });
});

describe('drafts', () => {
  const name = () => page.getByLabel('Teacher Name');
  const notice = () => page.locator('.draft-notice');

  it('keeps what was typed through Back, Forward and a reload, passwords excepted; Discard draft and Cancel forget it', async () => {
    await openScreen(page, server.url, '/teachers');
    await page.getByRole('link', { name: 'Add Teacher' }).click();
    await name().waitFor();
    await name().fill('Draft Teacher');
    await page.getByLabel('Email').fill('draft.teacher@example.org');
    await page.getByLabel('Password').fill('secret-123');
    await page.goBack();
    await page.waitForURL(/\/teachers(\?|$)/);
    // The list on screen, not only its address: the form has gone, and Forward opens it anew.
    await page.getByRole('heading', { name: 'Manage Teachers' }).waitFor();
    await page.goForward();
    await expect.poll(() => name().inputValue()).toBe('Draft Teacher');
    expect(await page.getByLabel('Email').inputValue()).toBe('draft.teacher@example.org');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await notice().textContent()).toContain(
      'was kept on this device and is shown below; it is not saved yet.',
    );

    await page.reload();
    await expect.poll(() => name().inputValue()).toBe('Draft Teacher');
    await notice().getByRole('button', { name: 'Discard draft' }).click();
    expect(await name().inputValue()).toBe('');
    expect(await notice().count()).toBe(0);
    await page.reload();
    await name().waitFor();
    expect(await name().inputValue()).toBe('');

    await name().fill('Given up');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/teachers(\?|$)/);
    await page.getByRole('link', { name: 'Add Teacher' }).click();
    await name().waitFor();
    expect(await name().inputValue()).toBe('');
    expect(await notice().count()).toBe(0);

    // A save forgets it too.
    await openScreen(page, server.url, '/addclasses');
    await page.getByLabel('Class Name').fill('Drafted and saved');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes/);
    await openScreen(page, server.url, '/addclasses');
    expect(await page.getByLabel('Class Name').inputValue()).toBe('');
    expect(await notice().count()).toBe(0);
  });
});

describe('the new record after an add', () => {
  async function addClass(name: string): Promise<void> {
    await openScreen(page, server.url, '/addclasses');
    await page.getByLabel('Class Name').fill(name);
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes/);
  }
  const current = () =>
    page
      .getByRole('button', { name: /^Page \d+$/, pressed: undefined })
      .and(page.locator('[aria-current="page"]'));
  const revealed = () => page.locator('tr[data-revealed]');

  it('online: the list opens on the page holding it (not page 1), the row marked and in view', async () => {
    // Twelve demo classes: the thirteenth is on page 2.
    await addClass('Zeta online');
    await expect.poll(() => current().textContent()).toBe('2');
    await expect.poll(() => revealed().textContent()).toContain('Zeta online');
    expect(await inView('tr[data-revealed]')).toBe(true);
    // The server names it; the mark stays on the row.
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 15_000 })
      .toMatch(CONNECTED);
    await expect.poll(() => revealed().getByText('Pending').count()).toBe(0);
    expect(await revealed().textContent()).toContain('Zeta online');
  });

  it('offline: the same, with its Pending marker', async () => {
    await context.setOffline(true);
    await addClass('Zeta offline');
    await expect.poll(() => current().textContent()).toBe('2');
    await expect.poll(() => revealed().textContent()).toContain('Zeta offline');
    expect(await revealed().getByText('Pending').count()).toBe(1);
    await context.setOffline(false);
  });
});

describe('selects and files', () => {
  it('tells apart options that would read the same by their parents', async () => {
    await openScreen(page, server.url, `/updatechapter/${btoa('1')}`);
    const series = page.getByRole('combobox', { name: 'Series', exact: true });
    await expect.poll(() => series.locator('option').count()).toBeGreaterThan(2);
    const labels = await series.locator('option').allTextContents();
    expect(labels).toContain('Number Fun — Class 1 · Mathematics');
    expect(labels).toContain('Number Fun — Class 2 · Mathematics');
    expect(labels.filter((l) => l === 'Number Fun')).toEqual([]);
    expect(labels).toContain('Curious Minds');
  });

  it('shows the chosen file’s name and a preview, and takes a dropped file', async () => {
    await openScreen(page, server.url, '/addbooks');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(2000).fill(0)]);
    await page
      .getByLabel('Book Cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.locator('.dropzone-name').textContent()).toBe('cover.png (2 KB)');
    expect(await page.getByRole('img', { name: 'Chosen Book Cover' }).getAttribute('src')).toMatch(/^blob:/);

    await page.locator('.dropzone').evaluate((zone) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(10)], 'dropped.png', { type: 'image/png' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.locator('.dropzone-name').textContent()).toBe('dropped.png (10 B)');
  });
});

describe('list states', () => {
  it('shows the Units default order, arrow and aria-sort, before any click', async () => {
    await openScreen(page, server.url, '/units');
    const sno = page.getByRole('columnheader', { name: /S\.no/ });
    expect(await sno.getAttribute('aria-sort')).toBe('ascending');
    expect(await sno.textContent()).toContain('▲');
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
  });

  it('shows the empty text and no page buttons for an empty search', async () => {
    await openScreen(page, server.url, '/classes?search=nothing-like-this');
    await expect.poll(() => page.getByText('No classes found.').count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Next' }).count()).toBe(0);
  });
});
