/**
 * One e-mail, one record, on the screens (Chromium, real IndexedDB, the real server) of an
 * install that already held two students of one address: Add Student with that address in
 * another case is refused at the field before anything is queued, with what was typed kept;
 * SETTINGS → Duplicate Records shows the pair, each a link to its form, and the group goes once
 * one of them has an address of its own.
 */
import { rm } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, launchBrowser, signInWithForm, storedCount } from '../helpers/browser';
import { folderWithDuplicates, SHARED_ADDRESS } from '../helpers/legacy-duplicates';
import { startTestServer, type TestServer } from '../helpers/server';
import { PORTRAIT, tabletContext } from '../helpers/tablet';

let dataDir: string;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  dataDir = await folderWithDuplicates();
  server = await startTestServer({ staticDir: DIST, dataDir });
  browser = await launchBrowser();
  context = await tabletContext(browser, PORTRAIT);
  page = await context.newPage();
  await signInWithForm(page, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('one e-mail, one record', () => {
  it('refuses a student whose address another student has, in any case, at the field, queueing nothing', async () => {
    await page.goto(`${server.url}/addstudents`);
    await page.getByLabel('Student Name').fill('Ravi Three');
    const email = page.getByLabel('Email');
    await email.fill(SHARED_ADDRESS.toUpperCase());
    await page.getByLabel('Password').fill('secret-12');
    await page.getByLabel('Contact Number').fill('9876543210');
    await page.getByRole('combobox', { name: 'School', exact: true }).selectOption({ label: 'Hill School' });
    await page.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'India' });
    await page.getByRole('button', { name: 'Add Student' }).tap();
    await expect
      .poll(() => page.locator('#field-email-error').textContent())
      .toBe('Email is already used by another student');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.inputValue()).toBe(SHARED_ADDRESS.toUpperCase());
    expect(await page.getByLabel('Student Name').inputValue()).toBe('Ravi Three');
    expect(await storedCount(page, 'outbox')).toBe(0);
  });

  it('lists the students that already share an address, each a link to its form, until one is corrected', async () => {
    await page.goto(`${server.url}/homepage`);
    await page.getByRole('button', { name: 'Menu' }).tap();
    const settings = page.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'SETTINGS' });
    // The drawer scrolls to its last entries on a portrait tablet.
    await settings.getByRole('link', { name: 'Duplicate Records' }).tap();
    const group = page.locator('.audit-entry');
    await expect.poll(() => group.count()).toBe(1);
    expect(await group.locator('p').first().textContent()).toBe(`2 students with Email ${SHARED_ADDRESS}`);
    expect(await group.getByRole('link').allTextContents()).toEqual(['Ravi One', 'Ravi Two']);

    await group.getByRole('link', { name: 'Ravi Two' }).tap();
    await page.getByRole('heading', { name: 'Update Student' }).waitFor();
    await page.getByLabel('Email').fill('ravi.two@x.example');
    await page.getByRole('button', { name: 'Update Student' }).tap();
    await page.waitForURL(/\/students(\?|$)/);
    await page.goto(`${server.url}/duplicates`);
    await expect.poll(() => page.getByText('No two records share an e-mail.').count()).toBe(1);
    await expect
      .poll(async () => (await server.query('SELECT email FROM students WHERE student_id = 2'))[0])
      .toEqual({ email: 'ravi.two@x.example' });
  });
});
