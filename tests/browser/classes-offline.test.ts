/**
 * The walking skeleton end to end, in Chromium against the built app and the real server:
 * sign in, add a class online, go offline, add and edit classes, reload while offline and
 * see them marked pending, go online, and find each change on the server exactly once.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { browserSuite, CONNECTED, signInWithForm } from '../helpers/browser';
import { serverTitles } from '../helpers/server';

const suite = browserSuite();

const serverClassNames = () => serverTitles(suite.server.apiRoot, classEntity);

const signInThroughForm = (page: Page, password?: string) => signInWithForm(page, suite.server.url, password);

async function addClass(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'Add Class' }).click();
  await page.getByLabel('Class Name').fill(name);
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: false }) });
}

describe('Classes in the browser, online and offline', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await suite.browser.newContext();
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  it('refuses a wrong password with the server message in red above the form', async () => {
    await signInThroughForm(page, 'wrong password');
    // The notices' alert region is on every page now (it must exist before a notice): the form's own alert.
    const error = page.locator('.login-card').getByRole('alert');
    await expect.poll(() => error.textContent()).toBe('Invalid username or password');
    expect(await error.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(179, 38, 30)');
    expect(page.url()).toMatch(/\/login$/);
  });

  it('signs in, sends the guard home, and adds a class online', async () => {
    await page.goto(`${suite.server.url}/classes`);
    await page.waitForURL(/\/login$/); // the guard
    await signInThroughForm(page);
    await page.waitForURL(/\/homepage$/);
    expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBe('true');
    expect(await page.title()).toMatch(/^Dashboard \| /);

    await page.getByText('MASTERFILTERS').click();
    await page.getByRole('link', { name: 'Classes' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Manage Classes' }).count()).toBe(1);
    await expect.poll(() => page.getByText('No classes found.').count()).toBe(1);
    await addClass(page, 'Online 1');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Class added successfully' }).count())
      .toBe(1);
    await expect.poll(serverClassNames).toEqual(['Online 1']);
    await expect.poll(() => row(page, 'Online 1').getByText('Pending').count()).toBe(0);
    expect(await page.getByText('Showing 1 to 1 of 1 entries').count()).toBe(1);
  });

  it('keeps working offline, survives a reload, and delivers each change once', async () => {
    // The service worker must have precached the shell before the network goes.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/^Offline/);

    await addClass(page, 'Offline A');
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: 'saved on this device, will be sent when online' })
          .count(),
      )
      .toBeGreaterThan(0);
    await addClass(page, 'Offline B');
    // Edit the offline add, and the class that is already on the server.
    await row(page, 'Offline A').getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Class Name').fill('Offline A2');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await page.waitForURL(/\/classes/);
    await row(page, 'Online 1').getByRole('link', { name: 'Edit' }).click();
    expect(page.url()).toMatch(/\/updateclass\/[A-Za-z0-9+/=%]+$/);
    await page.getByLabel('Class Name').fill('Online 1 edited');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await page.waitForURL(/\/classes/);

    // Cold start while offline: the shell comes from the service worker, data from IndexedDB.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Manage Classes' }).count()).toBe(1);
    for (const name of ['Offline A2', 'Offline B', 'Online 1 edited']) {
      await expect.poll(() => row(page, name).getByText('Pending').count()).toBe(1);
    }
    expect(await row(page, 'Offline A').count()).toBe(1); // 'Offline A2' only: no stale copy
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/3 waiting/);
    expect(await serverClassNames()).toEqual(['Online 1']);

    await context.setOffline(false);
    await expect
      .poll(serverClassNames, { timeout: 20_000 })
      .toEqual(['Offline A2', 'Offline B', 'Online 1 edited']);
    await expect.poll(() => page.getByText('Pending', { exact: true }).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(CONNECTED);
  });

  it('opens a deep link cold while offline, decoding the Base64 id in the route', async () => {
    const href = await row(page, 'Offline B').getByRole('link', { name: 'Edit' }).getAttribute('href');
    await context.setOffline(true);
    await page.goto(`${suite.server.url}${href}`);
    await expect.poll(() => page.getByLabel('Class Name').inputValue()).toBe('Offline B');
    expect(await page.title()).toMatch(/^Update Class \| /);
    await context.setOffline(false);
  });

  it('answers an id that is not Base64 with the router’s not-found screen inside the layout, and a bad page with its error screen', async () => {
    await page.goto(`${suite.server.url}/updateclass/${encodeURIComponent('not base64!')}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    expect(await page.getByRole('alert').filter({ hasText: 'There is no such page here' }).count()).toBe(1);
    expect(await page.getByLabel('Class Name').count()).toBe(0);
    // The menus stay: the screen is drawn inside the layout, with a way on.
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(/\/homepage$/);

    // A page that is not a whole number is the router's error screen, not page 1 in disguise.
    await page.goto(`${suite.server.url}/classes?page=abc`);
    await expect.poll(() => page.getByRole('heading', { name: 'Address not understood' }).count()).toBe(1);
    expect(
      await page
        .getByRole('alert')
        .filter({
          hasText: 'The address has page=abc: it must be a whole number from 1 to 9007199254740991.',
        })
        .count(),
    ).toBe(1);
    await page.getByRole('link', { name: 'Open the list from its first page' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Manage Classes' }).count()).toBe(1);
    expect(new URL(page.url()).search).toBe('');
  });

  it('deletes after a confirmation, offline too, and the server follows on reconnect', async () => {
    await page.goto(`${suite.server.url}/classes`);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await context.setOffline(true);
    await row(page, 'Offline B').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row(page, 'Offline B').count()).toBe(0);
    // The spec's question word for word, then the record it is about.
    expect(dialogs).toEqual(['Are you sure you want to delete this class?\n\nOffline B']);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/1 waiting/);
    await context.setOffline(false);
    await expect.poll(serverClassNames, { timeout: 20_000 }).toEqual(['Offline A2', 'Online 1 edited']);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(CONNECTED);
  });

  it('logs out: clears the stored session and goes to /login', async () => {
    await page.goto(`${suite.server.url}/homepage`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBeNull();
  });
});
