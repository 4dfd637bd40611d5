/**
 * axe-core with the WCAG 2.2 A and AA rules finds nothing, of any impact, on every
 * screen that exists, at 768x1024 and 1024x768 with a coarse pointer: login, dashboard,
 * every list, add and edit screen of the entity catalogue (so a new
 * entity is checked without editing this file), a form showing its problems, the outbox with
 * a change waiting (the server stopped) and one refused, and the navigation open (a menu on the landscape tablet,
 * the drawer on the portrait one).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from '../helpers/axe';
import { DIST, launchBrowser, signInWithForm } from '../helpers/browser';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';
import {
  entityScreens,
  LANDSCAPE,
  openScreen,
  PORTRAIT,
  type Screen,
  tabletContext,
} from '../helpers/tablet';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let screens: Screen[];
let rulesPassed = 0;

async function violations(what: string): Promise<string[]> {
  const found = await axeFindings(page, what);
  rulesPassed += found.passed;
  return found.violations;
}

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  context = await tabletContext(browser, PORTRAIT);
  page = await context.newPage();
  await signInWithForm(page, server.url);
  screens = await entityScreens(server);

  // The outbox: one change the server refuses (its class is deleted there meanwhile), one waiting.
  const admin = api(server.apiRoot, await signIn(server.apiRoot));
  const { body } = await admin.post('Masterfilter/Classes/addclasses.php', { className: 'Short-lived' });
  await page.goto(`${server.url}/classes?search=Short`);
  await page.getByText('Short-lived').waitFor();
  await context.setOffline(true);
  await page.getByRole('row').filter({ hasText: 'Short-lived' }).getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Class Name').fill('Edited offline');
  await page.getByRole('button', { name: 'Update Class' }).click();
  await page.waitForURL(/\/classes/);
  await admin.post('Masterfilter/Classes/deleteclasses.php', { class_id: body.id });
  await context.setOffline(false);
  await page.getByTestId('sync-status').filter({ hasText: '1 failed' }).waitFor({ timeout: 20_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Lets the page lay itself out again after a resize (media queries, components that measure). */
const settled = () =>
  page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );

describe('WCAG 2.2 A and AA (axe-core)', () => {
  // Each screen is opened once and checked at both tablet sizes (resized in place): opening
  // every screen twice cost a minute of the suite and checked nothing more.
  it('finds no violation on any screen at 768x1024 and at 1024x768', async () => {
    const found: string[] = [];
    let checked = 0;
    const check = async (what: string) => {
      for (const viewport of [PORTRAIT, LANDSCAPE]) {
        await page.setViewportSize(viewport);
        await settled();
        found.push(...(await violations(`${what} at ${viewport.width}x${viewport.height}`)));
        checked += 1;
      }
    };

    await context.clearCookies();
    await page.goto(`${server.url}/login`);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await check('login');
    await signInWithForm(page, server.url);
    await check('dashboard');
    for (const screen of screens) {
      await openScreen(page, server.url, screen.path, 'navigate');
      await check(screen.name);
    }
    await openScreen(page, server.url, '/addchapters', 'navigate');
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await page.getByText('Please fill in all required fields').waitFor();
    await check('chapter add with its problems');
    await openScreen(page, server.url, '/audit', 'navigate');
    await page.locator('ol.audit-list > li').first().waitFor();
    await check('audit trail');
    await openScreen(page, server.url, '/duplicates', 'navigate');
    await page.getByRole('status').filter({ hasText: 'No two records share an e-mail.' }).waitFor();
    await check('duplicate records');

    // A change that waits: the server stops answering before it is sent.
    await server.stop();
    await openScreen(page, server.url, '/addclasses', 'navigate');
    await page.getByLabel('Class Name').fill('Waiting');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes/);
    await openScreen(page, server.url, '/outbox', 'navigate');
    await page.getByText('Failed to update class').waitFor();
    await page.getByRole('row').filter({ hasText: 'Waiting' }).waitFor();
    await check('outbox with a change waiting and one refused');

    // The navigation open: a menu on the landscape tablet, the drawer on the portrait one.
    await page.setViewportSize(LANDSCAPE);
    await settled();
    await page.getByRole('button', { name: 'USERS' }).click();
    await page.getByRole('link', { name: 'Teachers' }).waitFor();
    found.push(...(await violations('USERS menu open at 1024x768')));
    await page.keyboard.press('Escape');
    await page.setViewportSize(PORTRAIT);
    await settled();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Teachers' }).waitFor();
    found.push(...(await violations('navigation drawer open at 768x1024')));
    checked += 2;
    await page.keyboard.press('Escape');
    await server.start();
    console.log(`axe at 768x1024 and 1024x768: ${checked} checks, ${found.length} violations`);
    expect(found).toEqual([]);
    // The rules did run (contrast, names, labels, ARIA...) on every screen.
    expect(rulesPassed).toBeGreaterThan(checked * 10);
    // Every screen of the catalogue at two sizes, axe on each: about 120 checks, each a page
    // load and a full axe run, so up to ten minutes on a loaded 2-core machine.
  }, 900_000);
});
