/**
 * The dashboard's charts in Chromium, against the built app and the real
 * server with the demo data, on a landscape tablet with reduced motion: the charts come after
 * the three figures have painted; "Show as table" shows each chart's numbers (those of the
 * demo data); a teacher disabled offline in another tab shows in the figures and the charts
 * within a second; axe finds nothing with the charts and with a table shown; the charts draw
 * under the app's Content-Security-Policy without a violation. A fresh load paints the charts
 * of the last visit at once, saying so, then the counts of the records as they are.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_ALL_PATH } from '../../src/contract/wire';
import { axeFindings } from '../helpers/axe';
import { DIST, launchBrowser, signInWithForm, signInWithoutServiceWorker } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { clipping, LANDSCAPE, measureTargets, PHONE, PORTRAIT } from '../helpers/tablet';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Content-Security-Policy violations reported by the pages. */
const violations: string[] = [];

declare global {
  interface Window {
    /** What appeared first: the figures' numbers or a drawn chart (the init script's record). */
    dashboardOrder?: string[];
    /** Each state the charts showed, in order: their source line and the active chart's Teachers row. */
    chartsShown?: string[];
    /** Canvases given a drawing context (Chart.js asks for one as it draws a chart). */
    chartsDrawn?: number;
  }
}

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: LANDSCAPE, hasTouch: true, reducedMotion: 'reduce' });
  // Chart.js sets inline styles on its canvas: the app's Content-Security-Policy must allow them.
  context.on('console', (msg) => {
    if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text());
  });
  // Notes, in the page, the moment the figures show numbers and the moment a chart is drawn.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
    window.dashboardOrder = [];
    const seen = new Set<string>();
    const note = (what: string) => {
      if (seen.has(what)) return;
      seen.add(what);
      window.dashboardOrder?.push(what);
    };
    new MutationObserver(() => {
      const teachers = document.querySelector('[data-testid="figure-teachers"]');
      if (teachers && /^\d+$/.test(teachers.textContent ?? '')) note('figures');
      if (document.querySelector('.chart-frame[data-drawn]')) note('chart');
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  page = await context.newPage();
  await signInWithForm(page, server.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const panel = (id: string) => page.getByTestId(`chart-${id}`);

/** A chart's table as text, row by row (read whether it is shown or visually hidden). */
const tableOf = (id: string) =>
  page
    .getByTestId(`chart-${id}-table`)
    .evaluate((table) =>
      Array.from((table as HTMLTableElement).tBodies[0].rows, (row) =>
        Array.from(row.cells, (cell) => cell.textContent).join(' | '),
      ),
    );

/** The width a table takes on the screen: its frame's (a visually hidden frame is a pixel). */
const shownWidth = (table: Locator) => table.evaluate((t) => t.parentElement?.getBoundingClientRect().width);

const figure = (name: string) => page.getByTestId(`figure-${name}`).textContent();

/** Requests of a context matching `pattern`, held until `release` is called; `asked` once one came. */
async function holdRequests(context: BrowserContext, pattern: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold = { asked: false, release };
  await context.route(pattern, async (route) => {
    hold.asked = true;
    await held;
    await route.continue();
  });
  return hold;
}

describe('the dashboard’s charts', () => {
  it('draws four charts after the three figures have painted, under the CSP', async () => {
    await expect.poll(() => page.locator('.chart-frame[data-drawn]').count(), { timeout: 20_000 }).toBe(4);
    const order = await page.evaluate(() => window.dashboardOrder);
    expect(order).toEqual(['figures', 'chart']);
    for (const id of ['schools', 'active', 'books', 'weeks'])
      expect(await panel(id).getByRole('img').getAttribute('aria-label')).toMatch(/chart; the table/);
    expect(violations).toEqual([]);
  });

  it('shows each chart’s numbers as a table on "Show as table", and the chart again after', async () => {
    // The demo data, once the first sync has brought it.
    await expect
      .poll(() => tableOf('schools'), { timeout: 20_000 })
      .toEqual(['Green Valley School | 2 | 2', 'Lakeside Public School | 1 | 1']);
    const schools = panel('schools');
    await schools.getByRole('button', { name: 'Show as table' }).click();
    expect(await shownWidth(schools.getByRole('table'))).toBeGreaterThan(200);
    expect(await schools.getByRole('img').count()).toBe(0);
    expect(await schools.getByRole('columnheader').allTextContents()).toEqual([
      'School',
      'Students',
      'Teachers',
    ]);
    expect(await schools.getByRole('row', { name: /Green Valley School/ }).textContent()).toBe(
      'Green Valley School22',
    );

    expect(await tableOf('active')).toEqual(['Schools | 2 | 0', 'Teachers | 2 | 1', 'Students | 3 | 0']);
    // Ties (two holders each) in the order the books were added.
    expect(await tableOf('books')).toEqual([
      'Sunrise English Reader 1 | 1 | 1 | 1',
      'Sunrise English Workbook 1 | 1 | 1 | 0',
      'Sunrise English Reader 2 | 1 | 0 | 1',
      'Number Fun 1 | 1 | 1 | 0',
      'Number Fun 2 | 1 | 0 | 0',
    ]);
    // The demo's three teachers were added when the server started: this week, the last of 13.
    const weeks = await tableOf('weeks');
    expect(weeks).toHaveLength(13);
    expect(weeks.map((w) => w.split(' | ')[1])).toEqual([...Array(12).fill('0'), '3']);

    await schools.getByRole('button', { name: 'Show as chart' }).click();
    await expect.poll(() => schools.locator('.chart-frame[data-drawn]').count()).toBe(1);
    // Visually hidden: a pixel, clipped.
    expect(await shownWidth(schools.getByRole('table'))).toBeLessThanOrEqual(1);
    // Hidden from sight, still there for a screen reader.
    expect(await page.getByRole('table', { name: 'Students and teachers per school' }).count()).toBe(1);
  });

  it('follows a teacher disabled offline in another tab within a second', async () => {
    const other = await context.newPage();
    await other.goto(`${server.url}/teachers`);
    const asha = other.getByRole('row').filter({ hasText: 'Asha Rao' });
    await asha.getByRole('button', { name: 'Disable' }).waitFor({ timeout: 20_000 });
    expect(await figure('pendingApprovals')).toBe('1');
    await context.setOffline(true);
    try {
      await asha.getByRole('button', { name: 'Disable' }).click();
      await asha.getByRole('button', { name: 'Enable' }).waitFor();
      // The change is in the local store: the dashboard's figures and charts follow it.
      await expect.poll(() => figure('pendingApprovals'), { timeout: 1_000 }).toBe('2');
      await expect
        .poll(() => tableOf('active'), { timeout: 1_000 })
        .toEqual(['Schools | 2 | 0', 'Teachers | 1 | 2', 'Students | 3 | 0']);
    } finally {
      await context.setOffline(false);
      await other.close();
    }
  });

  it('fits a portrait tablet and a phone with a table shown: nothing scrolls sideways, targets of 44 px', async () => {
    await panel('active').getByRole('button', { name: 'Show as table' }).click();
    try {
      for (const viewport of [PORTRAIT, PHONE]) {
        await page.setViewportSize(viewport);
        await expect.poll(() => clipping(page), { message: `${viewport.width}` }).toEqual([]);
        const small = (await measureTargets(page)).filter((t) => t.width < 43.5 || t.height < 43.5);
        expect(small.map((t) => t.what)).toEqual([]);
      }
    } finally {
      await page.setViewportSize(LANDSCAPE);
    }
  });

  it('has no axe violation with the charts, nor with a table shown', async () => {
    const check = async () => (await axeFindings(page, 'dashboard')).violations;
    expect(await check()).toEqual([]);
    await panel('books').getByRole('button', { name: 'Show as table' }).click();
    expect(await check()).toEqual([]);
  });
});

describe('the charts on a fresh load', () => {
  const source = () => page.getByTestId('charts-source').textContent();
  const teachersRow = async () => (await tableOf('active')).find((row) => row.startsWith('Teachers'));

  it("paint the last visit's figures at once, then the counts of the records as they are now", async () => {
    await page.goto(`${server.url}/homepage`);
    await expect.poll(source, { timeout: 20_000 }).toBe('Counted from the records on this device.');
    const before = (await teachersRow())!;
    // A teacher's status changed while the dashboard is closed: the last visit's figures are old.
    await page.goto(`${server.url}/teachers`);
    const asha = page.getByRole('row').filter({ hasText: 'Asha Rao' });
    const toggle = asha.getByRole('button', { name: /^(Enable|Disable)$/ });
    await toggle.waitFor({ timeout: 20_000 });
    const disabling = (await toggle.textContent()) === 'Disable';
    await toggle.click();
    await asha.getByRole('button', { name: disabling ? 'Enable' : 'Disable' }).waitFor();
    const [, active, inactive] = before.split(' | ').map(Number);
    const shift = disabling ? 1 : -1;
    const after = `Teachers | ${active - shift} | ${inactive + shift}`;

    await context.addInitScript(() => {
      window.chartsShown = [];
      new MutationObserver(() => {
        const line = document.querySelector('[data-testid="charts-source"]')?.textContent;
        const row = [
          ...(document.querySelector<HTMLTableElement>('[data-testid="chart-active-table"]')?.tBodies[0]
            ?.rows ?? []),
        ]
          .map((r) => [...r.cells].map((c) => c.textContent).join(' | '))
          .find((text) => text.startsWith('Teachers'));
        const state = `${line} / ${row}`;
        if (line && row && window.chartsShown?.at(-1) !== state) window.chartsShown?.push(state);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${server.url}/homepage`);
    await expect.poll(teachersRow, { timeout: 20_000 }).toBe(after);
    await expect.poll(source).toBe('Counted from the records on this device.');
    const shown = await page.evaluate(() => window.chartsShown);
    // First what the last visit showed, said to be so; last, the counts of the records now.
    expect(shown?.[0]).toBe(`As at your last visit; counting again… / ${before}`);
    expect(shown?.at(-1)).toBe(`Counted from the records on this device. / ${after}`);
  });
});

describe('the figures on a device whose first sync has not completed', () => {
  it('say "counting", not 0, until the lists they count have arrived', async () => {
    const fresh = await browser.newContext({ viewport: LANDSCAPE, hasTouch: true });
    // The teachers come with the pull of every list.
    const pull = await holdRequests(fresh, `**/api/${PULL_ALL_PATH}*`);
    try {
      const tablet = await fresh.newPage();
      await signInWithForm(tablet, server.url);
      await tablet.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await expect.poll(() => pull.asked, { timeout: 20_000 }).toBe(true);
      const teachers = tablet.getByTestId('figure-teachers');
      // The teachers have not arrived, so no figure is a count yet.
      expect(await teachers.textContent()).toBe('–counting');
      expect(await tablet.getByTestId('figure-booksNotAssigned').textContent()).toBe('–counting');
      pull.release();
      await expect.poll(() => teachers.textContent(), { timeout: 20_000 }).toBe('3');
    } finally {
      pull.release();
      await fresh.close();
    }
  });
});

describe('leaving the dashboard before its charts are drawn', () => {
  it('draws none of them while the next screen loads', async () => {
    // No service worker: the app's chunks come from the network, where the test holds two.
    const leaving = await browser.newContext({
      viewport: LANDSCAPE,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    await leaving.addInitScript(() => {
      window.chartsDrawn = 0;
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: never[]) {
        window.chartsDrawn = (window.chartsDrawn ?? 0) + 1;
        return (getContext as (...a: never[]) => RenderingContext | null).apply(this, args);
      } as typeof getContext;
    });
    const chartCode = await holdRequests(leaving, '**/assets/chart-setup-*.js');
    const listScreen = await holdRequests(leaving, '**/assets/entity-screen-*.js');
    try {
      const tablet = await leaving.newPage();
      await signInWithoutServiceWorker(tablet, server.url);
      await tablet.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await expect.poll(() => chartCode.asked, { timeout: 20_000 }).toBe(true);
      // The administrator leaves for the teachers: that screen's code is still on its way.
      await tablet.locator('main a[href="/teachers"]').first().click();
      // Chart.js arrives meanwhile; before, its charts were drawn on the screen being left.
      chartCode.release();
      await tablet
        .waitForFunction(() => (window.chartsDrawn ?? 0) > 0, null, { timeout: 3000 })
        .catch(() => undefined);
      expect(await tablet.evaluate(() => window.chartsDrawn)).toBe(0);
      listScreen.release();
      await expect
        .poll(() => tablet.getByRole('heading', { level: 1 }).textContent(), { timeout: 20_000 })
        .toMatch(/Teacher/);
      expect(await tablet.evaluate(() => window.chartsDrawn)).toBe(0);
      // Back on the dashboard, its charts are drawn.
      await tablet.goBack();
      await expect
        .poll(() => tablet.locator('.chart-frame[data-drawn]').count(), { timeout: 20_000 })
        .toBe(4);
    } finally {
      chartCode.release();
      listScreen.release();
      await leaving.close();
    }
  });
});
