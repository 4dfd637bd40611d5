/**
 * Signing in offline, in Chromium against the built app and the real server: a sign-in the
 * server accepted leaves a verifier on the device (neither the password nor the server's hash);
 * signed out and offline, the sign-in page says what is possible, refuses a wrong password in
 * the server's words and lets the right one in to the local data; a change queued then reaches
 * the server once the connection is back, the session renewed without asking (the server's
 * session had gone); Forget after a sign-out ends offline sign-in on this device; wrong
 * passwords are limited as the server limits them.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { browserSuite, signInWithForm, storedValue } from '../../helpers/browser';
import { ADMIN, serverTitles } from '../../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await suite.browser.newContext();
  page = await context.newPage();
});

/** The device's store of offline sign-ins, read straight from IndexedDB. */
const storedSignIns = async () =>
  JSON.stringify(
    ((await storedValue(page, 'meta', 'offlineSignIn')) as { value?: unknown } | undefined)?.value ?? {},
  );

/** One sign-in attempt through the form, answered (the Login button enabled again) or let in. */
async function signInOffline(password: string): Promise<void> {
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(password);
  const login = page.getByRole('button', { name: 'Login' });
  await login.click();
  await expect.poll(async () => /\/homepage$/.test(page.url()) || (await login.isEnabled())).toBe(true);
}
const loginError = () => page.locator('.login-error').textContent();

async function logOut(): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(/\/login$/);
}

it('signs in offline with the password, queues a change, and delivers it once back online', async () => {
  await signInWithForm(page, suite.server.url);
  await expect.poll(storedSignIns).toContain('"admin"');
  const stored = await storedSignIns();
  expect(stored).not.toContain(ADMIN.password);
  expect(stored).not.toMatch(/scrypt|\$/);

  await context.setOffline(true);
  await logOut();
  const offlineNote = page
    .getByRole('status')
    .filter({ hasText: 'Offline: an administrator who has signed in on this device before' });
  await expect.poll(() => offlineNote.count()).toBe(1);
  await expect
    .poll(() => page.locator('.login-note').last().textContent())
    .toContain('admin can sign in on this device without a connection.');

  await signInOffline('not-the-password');
  expect(await loginError()).toBe('Invalid username or password');
  await signInOffline(ADMIN.password);
  await page.waitForURL(/\/homepage$/);

  // Within the app, as an administrator goes (a reload would drop the password kept in memory
  // for renewing the session; the server's refusal would then ask for it).
  await page.getByRole('button', { name: 'MASTERFILTERS' }).click();
  await page.getByRole('link', { name: 'Classes' }).click();
  await page.getByRole('link', { name: 'Add Class' }).click();
  await page.getByLabel('Class Name').fill('Signed in offline');
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
  // The server's session is gone meanwhile: back online, the device signs in again by itself.
  await context.clearCookies();
  await context.setOffline(false);
  await expect
    .poll(() => serverTitles(suite.server.apiRoot, classEntity), { timeout: 30_000 })
    .toContain('Signed in offline');
  expect(await page.getByRole('alert').filter({ hasText: 'Please sign in again' }).count()).toBe(0);
});

it('after Forget, this device no longer signs the administrator in offline', async () => {
  await logOut();
  await page.locator('.login-note').getByRole('button', { name: 'Forget' }).click();
  await expect.poll(storedSignIns).toBe('{}');
  await context.setOffline(true);
  await signInOffline(ADMIN.password);
  expect(await loginError()).toBe('An error occurred during login');
  await context.setOffline(false);
});

it('limits wrong passwords offline as the server does: five, then a wait', async () => {
  await signInWithForm(page, suite.server.url);
  await expect.poll(storedSignIns).toContain('"admin"');
  await context.setOffline(true);
  await logOut();
  for (let i = 1; i <= 6; i++) {
    await signInOffline(`wrong-${i}`);
    expect(await loginError()).toBe('Invalid username or password');
  }
  // Locked now: even the right password waits.
  await signInOffline(ADMIN.password);
  expect(await loginError()).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds\.$/);
  expect(page.url()).toMatch(/\/login$/);
  await context.setOffline(false);
});
