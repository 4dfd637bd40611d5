/**
 * Unsent changes kept, in Chromium against the built app and the real server: persistent storage is
 * asked after sign-in and the outbox says what the browser decided; "Save unsent changes"
 * downloads the file; "Load changes from a file" on a second browser queues the change, which
 * that browser delivers; the first comes online, sends its copy under the same key, and shows
 * it delivered too; the server has the change once.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { browserSuite, signInWithForm } from '../helpers/browser';
import { serverTitles } from '../helpers/server';

const suite = browserSuite();
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

const serverClassNames = () => serverTitles(suite.server.apiRoot, classEntity);

async function device(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.browser.newContext({ acceptDownloads: true });
  contexts.push(context);
  // Counts the app's requests for persistent storage, across the page's navigations.
  await context.addInitScript(() => {
    const ask = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function (this: StorageManager) {
      sessionStorage.setItem('persistAsked', String(Number(sessionStorage.getItem('persistAsked') ?? 0) + 1));
      return ask.call(this);
    };
  });
  const page = await context.newPage();
  await signInWithForm(page, suite.server.url);
  return { context, page };
}

const delivered = (page: Page) => page.getByText('Every change has reached the server.').count();

it('saves the waiting change to a file, loads it on a second browser, and both show it delivered once', async () => {
  const a = await device();
  expect(Number(await a.page.evaluate(() => sessionStorage.getItem('persistAsked')))).toBeGreaterThan(0);

  await a.context.setOffline(true);
  await a.page.goto(`${suite.server.url}/addclasses`);
  await a.page.getByLabel('Class Name').fill('Carried by file');
  await a.page.getByRole('button', { name: 'Add Class' }).click();
  await a.page.waitForURL(/\/classes/);
  await a.page.goto(`${suite.server.url}/outbox`);
  await expect
    .poll(() => a.page.getByTestId('storage-status').textContent(), { timeout: 10_000 })
    .toMatch(/persistent storage is (on|off)\)\..* used of .* this browser allows\./);

  const [download] = await Promise.all([
    a.page.waitForEvent('download'),
    a.page.getByRole('button', { name: 'Save unsent changes' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^unsent-changes-.*\.json$/);
  const file = await download.path();
  await expect
    .poll(() => a.page.getByTestId('saved-queue-status').textContent())
    .toBe(`Saved 1 change to ${download.suggestedFilename()}. Keep the file until it reaches the server.`);

  // The second browser loads it and, online, delivers it.
  const b = await device();
  await b.page.goto(`${suite.server.url}/outbox`);
  await b.page.getByLabel('Load changes from a file').setInputFiles(file);
  await expect
    .poll(() => b.page.getByTestId('saved-queue-status').textContent(), { timeout: 10_000 })
    .toBe(
      'Loaded 1 change. They are sent from here. If the other device sends them too, each still takes effect only once.',
    );
  await expect.poll(serverClassNames, { timeout: 20_000 }).toEqual(['Carried by file']);
  await expect.poll(() => delivered(b.page), { timeout: 15_000 }).toBe(1);

  // The same file again: nothing queued twice.
  await b.page.getByLabel('Load changes from a file').setInputFiles(file);
  await expect
    .poll(() => b.page.getByTestId('saved-queue-status').textContent())
    .toBe('These changes are already on this device. Nothing new was loaded.');

  // The first comes online: its copy is answered from the server's stored reply.
  await a.context.setOffline(false);
  await expect.poll(() => delivered(a.page), { timeout: 20_000 }).toBe(1);
  expect(await serverClassNames()).toEqual(['Carried by file']);
});
