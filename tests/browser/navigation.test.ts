/**
 * Navigation in Chromium against the built app: the menus as a disclosure
 * navigation by keyboard (open, arrows, Escape and focus back, one open at a time) and by
 * touch (an outside tap closes, choosing a link closes), never covering the sync indicator or
 * Logout; the drawer of narrow screens; the skip link; focus on the heading after each
 * navigation; notices announced through live regions that exist before them.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueMenus } from '../../src/contract/catalogue/menus';
import { entities } from '../../src/contract/entities';
import { browserSuite, signInWithForm } from '../helpers/browser';
import { LANDSCAPE, PORTRAIT, tabletContext } from '../helpers/tablet';

// The demo data: a list long enough for page buttons, and a class still in use.
const suite = browserSuite({ seedDemo: true });
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await signInWithForm(page, suite.server.url);
});
afterAll(() => context?.close());

const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    // Its text without what is hidden from assistive technology (a menu's arrow).
    const copy = el?.cloneNode(true) as HTMLElement | undefined;
    for (const hidden of copy?.querySelectorAll('[aria-hidden="true"]') ?? []) hidden.remove();
    return el ? `${el.tagName.toLowerCase()}:${copy?.textContent?.trim()}` : '';
  });
const expanded = (p: Page, name: string) =>
  p.getByRole('button', { name, exact: true }).getAttribute('aria-expanded');
const openMenus = (p: Page) => p.locator('.menu-list:popover-open').count();

/** A menu's link texts as the descriptions declare them, so that a new entity's link moves nothing here. */
const linksOf = (menu: string) =>
  catalogueMenus(entities)
    .find((m) => m.label === menu)!
    .links.map((l) => l.label);
const masterLinks = linksOf('MASTERFILTERS').map((label) => `a:${label}`);

/** The element at the centre of a locator's box is the locator's own (nothing covers it). */
async function uncovered(p: Page, selector: string): Promise<boolean> {
  return p.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el === hit || el.contains(hit));
  }, selector);
}

describe('menus by keyboard', () => {
  it('opens with a down arrow, moves with the arrows, closes with Escape and gives focus back', async () => {
    await page.goto(`${suite.server.url}/homepage`);
    await page.getByRole('button', { name: 'MASTERFILTERS' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => expanded(page, 'MASTERFILTERS')).toBe('true');
    expect(await focused()).toBe(masterLinks[0]);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(masterLinks[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(masterLinks.at(-1)); // wraps round
    await page.keyboard.press('Home');
    expect(await focused()).toBe(masterLinks[0]);
    await page.keyboard.press('Escape');
    await expect.poll(() => expanded(page, 'MASTERFILTERS')).toBe('false');
    await expect.poll(() => openMenus(page)).toBe(0);
    expect(await focused()).toBe('button:MASTERFILTERS');

    // Left and right move between the top items; Enter opens; one menu is open at a time.
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('button:RESOURCES');
    await page.keyboard.press('Enter');
    await expect.poll(() => expanded(page, 'RESOURCES')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => expanded(page, 'USERS')).toBe('true');
    await expect.poll(() => expanded(page, 'RESOURCES')).toBe('false');
    await expect.poll(() => openMenus(page)).toBe(1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('a:DASHBOARD');
  });

  it('closes when a link is chosen, and focus goes to the new screen’s heading', async () => {
    await page.getByRole('button', { name: 'MASTERFILTERS' }).focus();
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < masterLinks.indexOf('a:Classes'); i++) await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('a:Classes');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/classes$/);
    await expect.poll(focused).toBe('h1:Manage Classes');
    await expect.poll(() => openMenus(page)).toBe(0);
  });

  it('closes on a route change made elsewhere', async () => {
    await page.getByRole('button', { name: 'CMS' }).click();
    await expect.poll(() => openMenus(page)).toBe(1);
    await page.evaluate(() => history.back());
    await page.waitForURL(/\/homepage$/);
    await expect.poll(() => openMenus(page)).toBe(0);
  });

  it('offers a skip link first, which takes focus to the screen’s heading', async () => {
    await page.goto(`${suite.server.url}/classes`);
    await page.getByRole('heading', { name: 'Manage Classes' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('a:Skip to main content');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('h1:Manage Classes');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('a:Add Class');
  });
});

describe('opening a screen', () => {
  it('goes from the dashboard straight to a list, with no loading screen between them', async () => {
    // A fresh load: the entity screens' code is not in yet.
    await page.goto(`${suite.server.url}/homepage`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __loadingShown: boolean };
      w.__loadingShown = false;
      new MutationObserver(() => {
        if (document.querySelector('main > p.screen')?.textContent === 'Loading…') w.__loadingShown = true;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'MASTERFILTERS' }).click();
    await page.getByRole('link', { name: 'Classes', exact: true }).click();
    await page.getByRole('heading', { name: 'Manage Classes' }).waitFor();
    // The router loads the screen's code before it renders it: nothing suspends on the way.
    expect(await page.evaluate(() => (window as unknown as { __loadingShown: boolean }).__loadingShown)).toBe(
      false,
    );
  });
});

describe('menus by touch on a tablet', () => {
  it('landscape: a tap opens a menu, a tap outside closes it, and it covers neither the indicator nor Logout', async () => {
    const tablet = await tabletContext(suite.browser, LANDSCAPE);
    const p = await tablet.newPage();
    await signInWithForm(p, suite.server.url);
    await p.getByRole('button', { name: 'USERS' }).tap();
    await expect.poll(() => expanded(p, 'USERS')).toBe('true');
    expect(await uncovered(p, '.sync')).toBe(true);
    expect(await uncovered(p, '.topbar-end .button')).toBe(true);
    await p.getByRole('button', { name: 'CMS' }).tap();
    await expect.poll(() => openMenus(p)).toBe(1);
    await p.touchscreen.tap(500, 500);
    await expect.poll(() => openMenus(p)).toBe(0);
    await expect.poll(() => expanded(p, 'CMS')).toBe('false');
    await tablet.close();
  });

  it('portrait: the menus live in a drawer that leaves the bar one row and closes on a choice', async () => {
    const tablet = await tabletContext(suite.browser, PORTRAIT);
    const p = await tablet.newPage();
    await signInWithForm(p, suite.server.url);
    expect(await p.getByRole('button', { name: 'MASTERFILTERS' }).isVisible()).toBe(false);
    await p.getByRole('button', { name: 'Menu' }).tap();
    await expect.poll(() => expanded(p, 'Menu')).toBe('true');
    expect(await uncovered(p, '.sync')).toBe(true);
    expect(await uncovered(p, '.topbar-end .button')).toBe(true);
    // Every menu's links, under the menu's name.
    const drawer = p.getByRole('navigation', { name: 'Main' });
    expect(await drawer.getByRole('list', { name: 'USERS' }).getByRole('link').allTextContents()).toEqual(
      linksOf('USERS'),
    );
    await p.touchscreen.tap(700, 600);
    await expect.poll(() => expanded(p, 'Menu')).toBe('false');

    await p.getByRole('button', { name: 'Menu' }).tap();
    await drawer.getByRole('link', { name: 'Units' }).tap();
    await p.waitForURL(/\/units$/);
    await expect.poll(() => expanded(p, 'Menu')).toBe('false');
    // The screen takes focus to its heading once it is drawn, which may be after the URL moved.
    await expect.poll(() => p.evaluate(() => document.activeElement?.textContent)).toBe('Manage Units');

    // By keyboard: down arrow from the Menu button into the drawer, Escape back to the button.
    await p.getByRole('button', { name: 'Menu' }).focus();
    await p.keyboard.press('Enter');
    await p.keyboard.press('Tab');
    expect(
      await p.evaluate(() => document.activeElement?.textContent),
      'the drawer follows its button in tab order',
    ).toBe('DASHBOARD');
    await p.keyboard.press('ArrowDown');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe(linksOf('MASTERFILTERS')[0]);
    await p.keyboard.press('Escape');
    await expect.poll(() => expanded(p, 'Menu')).toBe('false');
    expect(await p.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Menu$/);
    await tablet.close();
  });
});

describe('notices', () => {
  it('are announced through live regions that are there before any notice', async () => {
    await page.goto(`${suite.server.url}/classes`);
    const regions = page.locator('.notices');
    // The app may start after the load event (after the start picture's frame).
    await expect.poll(() => regions.locator('[role="status"]').count()).toBe(1);
    expect(await regions.locator('[role="alert"]').count()).toBe(1);
    expect(await regions.locator('[role="status"]').textContent()).toBe('');
    await page.getByRole('link', { name: 'Add Class' }).click();
    await page.getByLabel('Class Name').fill('Announced');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect
      .poll(() => regions.locator('[role="status"]').textContent())
      .toContain('Class added successfully');
    // Focus went to the list's heading, not to the page's body.
    expect(await focused()).toBe('h1:Manage Classes');
  });

  it('cover no control on a portrait tablet, and end when the administrator leaves their screen', async () => {
    const tablet = await tabletContext(suite.browser, PORTRAIT);
    try {
      const p = await tablet.newPage();
      await signInWithForm(p, suite.server.url);
      await p.goto(`${suite.server.url}/classes`);
      // Class 1, the first row, has series and books: Delete says so at once, in a notice that stays.
      await p
        .getByRole('row', { name: /Class 1\b/ })
        .first()
        .getByRole('button', { name: 'Delete' })
        .tap();
      const notice = p.locator('.notices .notice');
      await expect.poll(() => notice.textContent()).toContain('Failed to delete class');
      const pageTwo = p
        .getByRole('navigation', { name: 'Pagination' })
        .getByRole('button', { name: 'Page 2' });
      await pageTwo.scrollIntoViewIfNeeded();
      const covered = await pageTwo.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(hit && (hit === el || el.contains(hit)));
      });
      expect(covered, 'the notice covers the page buttons').toBe(false);
      await pageTwo.tap();
      await expect.poll(() => p.getByText('Class 12', { exact: true }).count()).toBe(1);
      expect(await notice.count(), 'a page of the same list is the same screen').toBe(1);

      await p.getByRole('link', { name: 'Add Class' }).tap();
      await p.getByLabel('Class Name').waitFor();
      expect(await notice.count(), 'the notice followed to another screen').toBe(0);
    } finally {
      await tablet.close();
    }
  });
});
