/**
 * Rule 4's 401 and rule 7's storage, in Chromium against the built app and the real server:
 * a session that ends while changes wait pauses the queue and asks for a new sign-in, after
 * which everything is sent; a full storage quota refuses a change in words and keeps both
 * the form and the queue intact.
 */

import { readFile, rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { bookEntity, classEntity } from '../../../src/contract/entities';
import { browserSuite, DIST, launchPersistent, signInWithForm } from '../../helpers/browser';
import { ADMIN, api, serverTitles, startTestServer } from '../../helpers/server';

const suite = browserSuite();

const classNames = () => serverTitles(suite.server.apiRoot, classEntity);

async function addClass(page: Page, name: string): Promise<void> {
  await page.goto(`${suite.server.url}/addclasses`);
  await page.getByLabel('Class Name').fill(name);
  await page.getByRole('button', { name: 'Add Class' }).click();
}

describe('session expiry while changes wait', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('pauses, asks to sign in again, then sends everything', async () => {
    context = await suite.browser.newContext();
    const page = await context.newPage();
    await signInWithForm(page, suite.server.url);
    // The server ends the session (expiry, or a sign-out elsewhere); the tab does not know.
    const [cookie] = await context.cookies(suite.server.url);
    await api(suite.server.apiRoot, `${cookie.name}=${cookie.value}`).post('Admin_access/logout.php', {});

    await addClass(page, 'After expiry');
    await page.waitForURL(/\/classes/);
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'Your session has ended. Please sign in again.' });
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toContain('sign in to send');
    expect(await classNames()).toEqual([]);

    await banner.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(classNames, { timeout: 15_000 }).toEqual(['After expiry']);
    await expect.poll(() => banner.count()).toBe(0);
  });
});

describe('a full storage quota', () => {
  let cleanup = async () => {};
  afterAll(() => cleanup());

  it('refuses the change in words, keeps what was typed and the queue intact', async () => {
    // Its own server with the demo hierarchy, so Add Book's selects have parents to offer.
    const seeded = await startTestServer({ staticDir: DIST, seedDemo: true });
    const { context, profile } = await launchPersistent();
    // Chromium's quota override (CDP Storage.overrideQuotaForOrigin) limits the Cache API but
    // not IndexedDB writes here, so a full disk is simulated where IndexedDB reports it: put
    // and add throw QuotaExceededError while the flag is set.
    await context.addInitScript(() => {
      for (const method of ['put', 'add'] as const) {
        const original = IDBObjectStore.prototype[method];
        IDBObjectStore.prototype[method] = function (
          this: IDBObjectStore,
          ...args: Parameters<typeof original>
        ) {
          if ((window as unknown as { diskFull?: boolean }).diskFull) {
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          }
          return original.apply(this, args);
        };
      }
    });
    cleanup = async () => {
      await context.close();
      await seeded.close();
      await rm(profile, { recursive: true, force: true });
    };
    const page = context.pages()[0] ?? (await context.newPage());
    await signInWithForm(page, seeded.url);

    await page.goto(`${seeded.url}/books`);
    await expect.poll(() => page.getByText('Sunrise English Reader 1').count()).toBe(1);
    await context.setOffline(true);
    await page.goto(`${seeded.url}/addclasses`);
    await page.getByLabel('Class Name').fill('Queued before');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes/);
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/1 waiting/);

    await page.goto(`${seeded.url}/addbooks`);
    for (const [label, option] of [
      ['Class', 'Class 1'],
      ['Subject', 'English'],
      ['Series', 'Sunrise English'],
    ]) {
      const select = page.getByRole('combobox', { name: label, exact: true });
      await expect.poll(() => select.locator('option', { hasText: option }).count()).toBeGreaterThan(0);
      await select.selectOption({ label: option });
    }
    await page.getByLabel('Book Name').fill('Does not fit');
    await page.getByLabel('Book Code').fill('BIG');
    const cover = Buffer.alloc(512 * 1024, 1);

    cover.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await page
      .getByLabel('Book Cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    await page.evaluate(() => {
      (window as unknown as { diskFull: boolean }).diskFull = true;
    });
    await page.getByRole('button', { name: 'Add Book' }).click();

    const problem = page.getByRole('alert').filter({ hasText: 'out of storage space' });

    await expect.poll(() => problem.count(), { timeout: 10_000 }).toBe(1);
    expect(page.url()).toMatch(/\/addbooks$/);
    expect(await page.getByLabel('Book Name').inputValue()).toBe('Does not fit');
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/1 waiting/);
    // The queue can still leave the device in a file, the disk still full.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      problem.getByRole('button', { name: 'Save unsent changes' }).click(),
    ]);
    const saved = JSON.parse(await readFile(await download.path(), 'utf8'));
    expect(
      saved.body.queue.entries.map((e: { payload: { class_name: string } }) => e.payload.class_name),
    ).toEqual(['Queued before']);

    // With room again the same form saves, and both changes are delivered once.
    await page.evaluate(() => {
      (window as unknown as { diskFull: boolean }).diskFull = false;
    });
    await page.getByRole('button', { name: 'Add Book' }).click();
    await page.waitForURL(/\/books/);
    await context.setOffline(false);
    // Both go out; the class may wait out the back-off its offline attempt earned, so each is
    // awaited on its own (their order is not promised: neither depends on the other).
    await expect
      .poll(() => serverTitles(seeded.apiRoot, bookEntity), { timeout: 20_000 })
      .toContain('Does not fit');
    await expect
      .poll(() => serverTitles(seeded.apiRoot, classEntity), { timeout: 30_000 })
      .toContain('Queued before');
  });
});
