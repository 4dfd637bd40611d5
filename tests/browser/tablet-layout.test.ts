/**
 * Touch and layout, in Chromium with a coarse pointer against the built app and a
 * seeded server: on every list and form screen (derived from the entity catalogue) and the
 * outbox, no control offers less than 44x44 CSS px at 768x1024 and a destructive button keeps
 * its distance; no table clips a column and nothing scrolls sideways at 768x1024 and 390x844
 * (login included); forms take two columns on a landscape tablet and one on portrait; the top
 * bar stays one row, and nothing in it is cut at 1024x768 or 768x1024 in the longest states
 * the sync indicator can reach (offline, failed, the server unreachable, signed out, and a first
 * sync cut off half-way with changes waiting and refused).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_ALL_PATH } from '../../src/contract/wire';
import { PULL_SIZES } from '../../src/sync/pull/pull';
import { DIST, launchBrowser, signInWithForm } from '../helpers/browser';
import { startSeededServer } from '../helpers/scale-server';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';
import {
  clipping,
  dangerGaps,
  disclosedValues,
  entityScreens,
  hiddenValues,
  LANDSCAPE,
  measureTargets,
  openScreen,
  PHONE,
  PORTRAIT,
  type Screen,
  tabletContext,
  topBarClipped,
  unreachableInList,
} from '../helpers/tablet';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let screens: Screen[];
let entityLists: Screen[];

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  context = await tabletContext(browser, PORTRAIT);
  page = await context.newPage();
  await signInWithForm(page, server.url);
  const ofEntities = await entityScreens(server);
  entityLists = ofEntities.filter((s) => s.kind === 'list');
  screens = [
    ...ofEntities,
    { name: 'outbox', path: '/outbox', kind: 'list', ready: 'h1' },
    { name: 'dashboard', path: '/homepage', kind: 'list', ready: 'h1' },
    { name: 'audit trail', path: '/audit', kind: 'list', ready: 'h1' },
    { name: 'duplicate records', path: '/duplicates', kind: 'list', ready: 'h1' },
  ];
  // A change waiting, so the outbox has a row with its buttons.
  await context.setOffline(true);
  await openScreen(page, server.url, '/addclasses');
  await page.getByLabel('Class Name').fill('Waiting class');
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('touch targets at 768x1024 with a coarse pointer', () => {
  it('measures none below 44x44 on any list or form screen, and keeps Delete apart', async () => {
    await page.setViewportSize(PORTRAIT);
    const small: string[] = [];
    let measured = 0;
    for (const screen of screens) {
      await openScreen(page, server.url, screen.path, 'navigate');
      const targets = await measureTargets(page);
      measured += targets.length;
      for (const t of targets)
        if (t.width < 43.5 || t.height < 43.5)
          small.push(`${screen.name}: ${t.what} ${t.width.toFixed(0)}x${t.height.toFixed(0)}`);
      for (const gap of await dangerGaps(page))
        expect(gap, `${screen.name}: Delete's distance`).toBeGreaterThanOrEqual(16);
    }
    console.log(
      `touch targets: ${measured} measured on ${screens.length} screens, ${small.length} below 44x44`,
    );
    expect(small).toEqual([]);
    expect(measured).toBeGreaterThan(screens.length * 5);
  });

  it("ticks a row's selection box and the page's from a finger anywhere in their 44x44 square", async () => {
    await page.setViewportSize(PORTRAIT);
    for (const path of ['/classes', '/books', '/units']) {
      await openScreen(page, server.url, path, 'navigate');
      const boxes = [page.getByRole('checkbox', { name: 'Select page' }), page.getByRole('checkbox').nth(1)];
      for (const box of boxes) {
        const r = (await box.boundingBox())!;
        expect(Math.min(r.width, r.height), `${path}: the box's square`).toBeGreaterThanOrEqual(43.5);
        // Each corner of the square, 3 px in: the tick flips every time.
        const corners = [
          [r.x + 3, r.y + 3],
          [r.x + r.width - 3, r.y + 3],
          [r.x + 3, r.y + r.height - 3],
          [r.x + r.width - 3, r.y + r.height - 3],
        ];
        for (const [x, y] of corners) {
          const before = await box.isChecked();
          await page.touchscreen.tap(x, y);
          await expect.poll(() => box.isChecked(), { message: `${path}: tap at ${x},${y}` }).toBe(!before);
        }
      }
    }
  });

  it('shows the skip link at full size when it has focus', async () => {
    await openScreen(page, server.url, '/classes');
    await page.keyboard.press('Tab');
    const box = await page.getByRole('link', { name: 'Skip to main content' }).boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(44);
    expect(box!.height).toBeGreaterThanOrEqual(44);
  });
});

describe('tables and pages that do not clip', () => {
  for (const viewport of [PORTRAIT, PHONE]) {
    it(`clips no column and scrolls nothing sideways at ${viewport.width}x${viewport.height}`, async () => {
      await page.setViewportSize(viewport);
      // Polled: the frame learns that its table overflows once the rows are drawn.
      for (const screen of screens) {
        await openScreen(page, server.url, screen.path, 'navigate');
        await expect.poll(() => clipping(page), { message: screen.name }).toEqual([]);
      }
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Login' }).waitFor();
      expect(await clipping(page), 'login').toEqual([]);
    });
  }

  it('turns rows into cards on a phone, each value with its label and the actions in reach, and back on a tablet', async () => {
    await page.setViewportSize(PHONE);
    await openScreen(page, server.url, '/units');
    const card = page.getByRole('row').filter({ hasText: 'Counting in Tens' });
    expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('block');
    const book = card.locator('td[data-label="Book"]');
    expect(await book.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Book"');
    for (const name of ['Edit', 'Delete']) {
      const box = (await card.getByRole(name === 'Edit' ? 'link' : 'button', { name }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    // Turned to a tablet's width on the same screen, the rows are a table's rows again.
    await page.setViewportSize(PORTRAIT);
    await expect.poll(() => card.evaluate((row) => getComputedStyle(row).display)).toBe('table-row');
    expect(await page.locator('[data-cards]').count()).toBe(0);
  });
});

describe('every list on a tablet', () => {
  for (const viewport of [LANDSCAPE, PORTRAIT]) {
    it(`shows each row's name, Status and actions without sideways scrolling at ${viewport.width}x${viewport.height}, the rest behind More`, async () => {
      await page.setViewportSize(viewport);
      let moved = 0;
      for (const screen of entityLists) {
        await openScreen(page, server.url, screen.path, 'navigate');
        // Polled: thumbnails and parents' names arrive after the rows.
        await expect.poll(() => unreachableInList(page), { message: screen.name }).toEqual([]);
        const hidden = await hiddenValues(page);
        moved += hidden.length;
        const disclosed = await disclosedValues(page);
        expect(disclosed, `${screen.name}: More shows the hidden columns' values`).toEqual(hidden);
      }
      console.log(
        `${viewport.width}x${viewport.height}: ${entityLists.length} lists, ${moved} values behind More`,
      );
      // The wide lists (teachers, students) cannot show every column on a tablet.
      expect(moved).toBeGreaterThan(0);
    });
  }
});

describe('forms and the top bar', () => {
  const top = (label: string) =>
    page.getByRole('combobox', { name: label, exact: true }).evaluate((el) => el.getBoundingClientRect().top);

  it('lays a form out in two columns on a landscape tablet and one on portrait', async () => {
    await page.setViewportSize(LANDSCAPE);
    await openScreen(page, server.url, '/addchapters');
    expect(await top('Subject')).toBe(await top('Class'));
    await page.setViewportSize(PORTRAIT);
    expect(await top('Subject')).toBeGreaterThan(await top('Class'));
  });

  it('keeps the top bar one row at every width, the sync indicator whole and Logout in view', async () => {
    for (const viewport of [LANDSCAPE, PORTRAIT, PHONE]) {
      await page.setViewportSize(viewport);
      await openScreen(page, server.url, '/classes');
      const rows = await page.evaluate(() => {
        const bar = document.querySelector('header.topbar')!.getBoundingClientRect();
        const parts = [...document.querySelectorAll<HTMLElement>('header.topbar > *, .topbar-end > *')]
          .filter((el) => el.checkVisibility() && !el.matches('.skip-link, .topbar-end'))
          .map((el) => el.getBoundingClientRect());
        return {
          height: bar.height,
          allInside: parts.every((r) => r.top >= bar.top && r.bottom <= bar.bottom && r.right <= innerWidth),
        };
      });
      expect(rows.height, `${viewport.width}px`).toBeLessThanOrEqual(64);
      expect(rows.allInside, `${viewport.width}px`).toBe(true);
      expect(await page.getByTestId('sync-status').isVisible()).toBe(true);
      // The state's words whole: a one-word state ('Online') cannot wrap, so it must fit.
      const cut = await page
        .getByTestId('sync-status')
        .evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
      expect(cut, `${viewport.width}px: the state is cut`).toBe(false);
      expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    }
  });
});

describe('the top bar in its longest states', () => {
  const status = () => page.getByTestId('sync-status').textContent();
  const noneCut = async (state: string, tab = page) => {
    for (const viewport of [LANDSCAPE, PORTRAIT]) {
      await tab.setViewportSize(viewport);
      await expect
        .poll(() => topBarClipped(tab), { message: `${state} at ${viewport.width}x${viewport.height}` })
        .toEqual([]);
    }
  };
  const addClassOffline = async (name: string, tab = page, url = server.url) => {
    await openScreen(tab, url, '/addclasses', 'navigate');
    await tab.getByLabel('Class Name').fill(name);
    await tab.getByRole('button', { name: 'Add Class' }).click();
    await tab.waitForURL(/\/classes/);
  };

  it('cuts nothing at 1024x768 and 768x1024: waiting, failed, the server unreachable, signed out', async () => {
    // A class the tablet edits offline while the server deletes it: the edit is refused.
    await context.setOffline(false);
    const admin = api(server.apiRoot, await signIn(server.apiRoot));
    const { body } = await admin.post('Masterfilter/Classes/addclasses.php', { className: 'Short-lived' });
    await openScreen(page, server.url, '/classes?search=Short-lived');
    await page.getByRole('row').filter({ hasText: 'Short-lived' }).waitFor({ timeout: 20_000 });
    await context.setOffline(true);
    await page
      .getByRole('row')
      .filter({ hasText: 'Short-lived' })
      .getByRole('link', { name: 'Edit' })
      .click();
    await page.getByLabel('Class Name').fill('Edited offline');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await page.waitForURL(/\/classes/);
    await admin.post('Masterfilter/Classes/deleteclasses.php', { class_id: body.id });
    await addClassOffline('Another waiting class');
    await expect.poll(status).toMatch(/^Offline · \d+ waiting$/);
    await noneCut('offline');

    await context.setOffline(false);
    await expect.poll(status, { timeout: 20_000 }).toMatch(/^(Online|Live) · 1 failed$/);
    await noneCut('failed');

    await server.stop();
    try {
      await addClassOffline('Waiting for the server');
      await expect.poll(status, { timeout: 20_000 }).toBe('Server unreachable · 1 waiting · 1 failed');
      await noneCut('the server unreachable');
    } finally {
      // The session goes before the server is back, or the waiting change could be sent first.
      await context.clearCookies();
      await server.start();
    }

    // The session gone: the next sending is refused for want of a sign-in.
    await openScreen(page, server.url, '/outbox', 'navigate');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(status, { timeout: 20_000 })
      .toBe('Signed out · 1 waiting · 1 failed · sign in to send');
    await noneCut('signed out');
  });

  it('cuts nothing when a first sync is cut off half-way with changes waiting and refused', async () => {
    // More students than one page of the pull: the first page arrives, every later one fails.
    const seeded = await startSeededServer(PULL_SIZES.deltaPage + 100, { staticDir: DIST });
    const tablet = await tabletContext(browser, LANDSCAPE);
    try {
      let pages = 0;
      await tablet.route(`**/${PULL_ALL_PATH}?*`, (route) =>
        ++pages > 1 ? route.abort('connectionrefused') : route.continue(),
      );
      const admin = api(seeded.apiRoot, await signIn(seeded.apiRoot));
      const { body } = await admin.post('Masterfilter/Classes/addclasses.php', { className: 'Short-lived' });
      const tab = await tablet.newPage();
      await signInWithForm(tab, seeded.url);
      const shown = () => tab.getByTestId('sync-status').textContent();
      await expect
        .poll(shown, { timeout: 30_000 })
        .toMatch(/^Server unreachable · Students [\d,]+ of [\d,]+$/);
      // An edit made offline to a class the server then deletes: refused once sent.
      await tablet.setOffline(true);
      await openScreen(tab, seeded.url, '/classes?search=Short-lived', 'navigate');
      await tab
        .getByRole('row')
        .filter({ hasText: 'Short-lived' })
        .getByRole('link', { name: 'Edit' })
        .click();
      await tab.getByLabel('Class Name').fill('Edited offline');
      await tab.getByRole('button', { name: 'Update Class' }).click();
      await tab.waitForURL(/\/classes/);
      await admin.post('Masterfilter/Classes/deleteclasses.php', { class_id: body.id });
      await tablet.setOffline(false);
      await expect.poll(shown, { timeout: 20_000 }).toMatch(/ · 1 failed$/);
      await seeded.stop();
      await addClassOffline('Waiting for the server', tab, seeded.url);
      const label = () => tab.getByRole('link', { name: /^Sync status:/ }).getAttribute('aria-label');
      await expect
        .poll(label, { timeout: 20_000 })
        .toMatch(/^Sync status: Server unreachable · Students [\d,]+ of [\d,]+ · 1 waiting · 1 failed$/);
      await noneCut('a first sync cut off, the server unreachable', tab);
      // The whole sentence stays in the label and the title; the bar shows the list's share.
      expect(await shown()).toMatch(/^Server unreachable · Students \d+% · 1 waiting · 1 failed$/);
    } finally {
      await tablet.close();
      await seeded.close();
    }
  });
});
