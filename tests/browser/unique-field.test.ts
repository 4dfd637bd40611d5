/**
 * A unique field in a real form: the generic screens of the test-only Fixture Widget
 * (a name unique across fixture widgets, tests/helpers/fixture-entities.ts), built into the app for
 * this file (tests/fixture-app.config.ts), in Chromium with real IndexedDB against the real
 * server with the fixture's migration.
 *
 * (a) A duplicate the device holds is refused at the field before anything is queued, in the
 *     words of contract/unique.ts, with what was typed kept.
 * (b) A duplicate the device could not know (made on the server after the device's last pull)
 *     is refused by the server's unique index (409): the change lands on the outbox screen as
 *     failed in the same words, with Retry, Edit and Discard, and Edit shows it at the field.
 * (c) Students' e-mails (without case), on the app itself, on an install that already held two
 *     students of one address: Add Student with it is refused at the field; SETTINGS →
 *     Duplicate Records shows the pair, each a link to its form, until one is corrected.
 */
import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, launchBrowser, nameCells, signInWithForm, storedCount } from '../helpers/browser';
import { FIXTURE_WIDGET_V1_MIGRATIONS, fixtureWidgetV1, registerFixtures } from '../helpers/fixture-entities';
import { folderWithDuplicates, SHARED_ADDRESS } from '../helpers/legacy-duplicates';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';
import { PORTRAIT, tabletContext } from '../helpers/tablet';

registerFixtures(fixtureWidgetV1);

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE_DIST = resolve(ROOT, 'dist-fixtures');
const DUPLICATE = 'Widget Name is already used by another fixture widget';
const B = fixtureWidgetV1.api;

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: ReturnType<typeof api>;

/** When did a build write its index.html; 0: never. */
const builtAt = (dir: string) =>
  stat(resolve(dir, 'index.html')).then(
    (s) => s.mtimeMs,
    () => 0,
  );

beforeAll(async () => {
  // `npm run build` makes it (build:fixtures); made here too when missing or older than the app's build.
  if ((await builtAt(FIXTURE_DIST)) <= (await builtAt(DIST)))
    await promisify(execFile)('npx', ['vite', 'build', '--config', 'tests/fixture-app.config.ts'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
  server = await startTestServer({
    staticDir: FIXTURE_DIST,
    settings: { extraMigrations: FIXTURE_WIDGET_V1_MIGRATIONS },
  });
  admin = api(server.apiRoot, await signIn(server.apiRoot));
  expect((await admin.post(B.add!, { widgetName: 'CBSE' })).status).toBe(200);
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, server.url);
  // The device's pull brings CBSE.
  await page.goto(`${server.url}/fixture-widgets`);
  await nameCells(page, 'CBSE').waitFor();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The texts an input is described by (its field error among them). */
const describedBy = (input: Locator) =>
  input.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );

/** The outbox entries stored on the device, straight from IndexedDB. */
const queued = () => storedCount(page, 'outbox');

describe('a unique field in a real form', () => {
  it('refuses a duplicate the device holds at the field, before queueing, keeping what was typed', async () => {
    await page.goto(`${server.url}/addfixturewidget`);
    const name = page.getByLabel('Widget Name');
    await name.fill('CBSE');
    await page.getByRole('button', { name: 'Add Fixture Widget' }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(name)).toContain(DUPLICATE);
    expect(await name.inputValue()).toBe('CBSE');
    expect(new URL(page.url()).pathname).toBe('/addfixturewidget');
    expect(await queued()).toBe(0);
  });

  it('a duplicate made on the server after the last pull: refused by the server, on the outbox with Retry, Edit and Discard, and at the field on Edit', async () => {
    await context.setOffline(true);
    await page.goto(`${server.url}/addfixturewidget`);
    await page.getByLabel('Widget Name').fill('ICSE');
    await page.getByRole('button', { name: 'Add Fixture Widget' }).click();
    await page.waitForURL(/\/fixture-widgets/);
    expect(await queued()).toBe(1);
    // Meanwhile another administrator adds the same name on the server.
    expect((await admin.post(B.add!, { widgetName: 'ICSE' })).status).toBe(200);
    await context.setOffline(false);
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 30_000 })
      .toMatch(/1 failed/);

    await page.goto(`${server.url}/outbox`);
    const row = page.getByRole('row').filter({ hasText: 'ICSE' });
    await expect.poll(() => row.textContent()).toContain(DUPLICATE);
    expect(await row.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Discard' }).isVisible()).toBe(true);

    await row.getByRole('link', { name: 'Edit' }).click();
    const name = page.getByLabel('Widget Name');
    await expect.poll(() => name.inputValue()).toBe('ICSE');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(name)).toContain(DUPLICATE);
    // Still failed, never sent again by itself.
    const sent = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM fixture_widgets WHERE widget_name = 'ICSE'",
    );
    expect(sent[0].n).toBe(1);
  });
});

describe('one e-mail, one record, on an install that already held two students of one address', () => {
  let dataDir: string;
  let server: TestServer;
  let tablet: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    dataDir = await folderWithDuplicates();
    // This file's fixture entity is registered in this process: its table too.
    server = await startTestServer({
      staticDir: DIST,
      dataDir,
      settings: { extraMigrations: FIXTURE_WIDGET_V1_MIGRATIONS },
    });
    tablet = await tabletContext(browser, PORTRAIT);
    page = await tablet.newPage();
    await signInWithForm(page, server.url);
  }, 120_000);
  afterAll(async () => {
    await tablet?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

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
