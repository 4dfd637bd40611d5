/**
 * Changes belong to their author, in Chromium: a change admin A left waiting on the tablet is
 * shown on the outbox as A's when admin B signs in there, is not sent under B's session, and
 * goes out when A signs in again.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureAdmin } from '../../server/auth/admin';
import { classEntity } from '../../src/contract/entities';
import { heldText } from '../../src/sync/queue-view';
import { browserSuite, signInWithForm } from '../helpers/browser';
import { ADMIN, serverTitles } from '../helpers/server';

const suite = browserSuite();
const MARIA = { username: 'maria', password: 'maria-password-1' };
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await ensureAdmin(
    (sql, params) => suite.server.query(sql, params ? [...params] : []),
    MARIA.username,
    MARIA.password,
  );
  context = await suite.browser.newContext();
  page = await context.newPage();
});
afterAll(async () => context?.close());

const serverClassNames = () => serverTitles(suite.server.apiRoot, classEntity);

async function signInAs(who: { username: string; password: string }) {
  await page.goto(`${suite.server.url}/login`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/homepage$/);
}

/** Logout with a change waiting offers to save it to a file first; this test logs out. */
async function logOutWithChangesWaiting() {
  await page.getByRole('button', { name: 'Logout' }).click();
  const offer = page.getByRole('dialog', { name: 'Changes not sent yet' });
  await expect.poll(() => offer.getByRole('button', { name: 'Save unsent changes' }).count()).toBe(1);
  await offer.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/\/login$/);
}

it('shows whose a waiting change is, keeps it from another administrator’s session, and sends it for its author', async () => {
  await signInWithForm(page, suite.server.url);
  await context.setOffline(true);
  await page.goto(`${suite.server.url}/addclasses`);
  await page.getByLabel('Class Name').fill('Left by admin');
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
  await logOutWithChangesWaiting();
  await context.setOffline(false);

  await signInAs(MARIA);
  await page.goto(`${suite.server.url}/outbox`);
  const row = page.getByRole('row').filter({ hasText: 'Class “Left by admin”' });
  await expect
    .poll(() => row.getByRole('cell').nth(2).textContent(), { timeout: 15_000 })
    .toBe(ADMIN.username);
  expect(await row.textContent()).toContain(heldText(ADMIN.username));
  // Never tried, so nothing to retry.
  expect(await row.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  expect(await page.getByTestId('held-for-others').textContent()).toContain(
    `made by ${ADMIN.username} on this device`,
  );
  expect(await page.getByRole('columnheader', { name: 'Made by' }).count()).toBe(1);

  // Sync now under B's session: it answers, and A's change stays on the tablet.
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect
    .poll(() => page.locator('.send-feedback').textContent(), { timeout: 15_000 })
    .not.toMatch(/^Sending/);
  expect(await serverClassNames()).not.toContain('Left by admin');
  expect(await row.count()).toBe(1);

  // A signs in again: the change goes out.
  await logOutWithChangesWaiting();
  await signInAs(ADMIN);
  await expect.poll(serverClassNames, { timeout: 20_000 }).toContain('Left by admin');
  await page.goto(`${suite.server.url}/outbox`);
  await expect
    .poll(() => page.getByText('Every change has reached the server.').count(), { timeout: 15_000 })
    .toBe(1);
});
