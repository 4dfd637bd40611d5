/**
 * The audit trail screen in Chromium: a class added and edited through the app is
 * listed with what changed, its edit form links to its history, the filters narrow the list,
 * and offline the screen says that history needs a connection and shows what it fetched last.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { encodeRouteId } from '../../src/ui/route-id';
import { browserSuite, signInWithForm } from '../helpers/browser';
import { api, serverTitles, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await suite.browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, suite.server.url);
});
afterAll(async () => context?.close());

const onServer = (name: string) =>
  expect.poll(() => serverTitles(suite.server.apiRoot, classEntity), { timeout: 20_000 }).toContain(name);

async function serverId(name: string): Promise<string> {
  const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const { body } = await admin.get(classEntity.api.list, { search: name });
  return String(body.classes.find((c: { class_name: string }) => c.class_name === name).class_id);
}

it('lists changes with filters, opens a record’s history from its form, and offline shows the last answer', async () => {
  const url = suite.server.url;
  await page.goto(`${url}/addclasses`);
  await page.getByLabel('Class Name').fill('Audited class');
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
  await onServer('Audited class');
  const id = await serverId('Audited class');
  const edit = `${url}/updateclass/${encodeRouteId(id)}`;
  await page.goto(edit);
  await page.getByLabel('Class Name').fill('Audited class 2');
  await page.getByRole('button', { name: 'Update Class' }).click();
  await page.waitForURL(/\/classes/);
  await onServer('Audited class 2');

  // The edit form links to the record's history.
  await page.goto(edit);
  await page.getByRole('link', { name: 'History of this class' }).click();
  await page.waitForURL(new RegExp(`/audit\\?entity=classes&id=${id}$`));
  const entries = page.locator('ol.audit-list > li');
  const updated = entries.filter({ hasText: 'Updated' });
  await updated.waitFor();
  expect(await updated.getByRole('row', { name: /Class Name/ }).textContent()).toBe(
    'Class NameAudited classAudited class 2',
  );
  // Who, on which device and when it was made there: the app sends both with each change.
  expect(await updated.textContent()).toMatch(/by admin.*made on the device .* · device [0-9a-f]{8}/);
  await entries.filter({ hasText: 'Added' }).waitFor();
  expect(await entries.count()).toBe(2);

  // Filters: another record type has none of these; Clear shows everything again.
  await page.getByLabel('Record type').selectOption({ label: 'Schools' });
  await page.getByLabel('Record id').fill('');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByText('No changes match these filters.').waitFor();
  await page.getByRole('link', { name: 'Clear' }).click();
  await page.waitForURL(/\/audit$/);
  await updated.waitFor();

  // Offline: the history of the class as fetched last, with the notice.
  await page.goto(`${url}/audit?entity=classes&id=${id}`);
  await updated.waitFor();
  await context.setOffline(true);
  try {
    await page.reload();
    await page.getByText('History needs a connection to the server.').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'History needs' }).textContent()).toContain(
      'Showing what this device fetched on',
    );
    await updated.waitFor();
    // Filters never asked online have nothing to show.
    await page.getByLabel('Administrator').fill('someone else');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('This device has not fetched this history before.').waitFor();
    expect(await entries.count()).toBe(0);
  } finally {
    await context.setOffline(false);
  }
});
