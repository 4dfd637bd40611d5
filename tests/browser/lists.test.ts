/**
 * The list screen in Chromium (real IndexedDB, the list worker) against a server
 * holding 140 classes: every column with an order sorts from its header (a button in the `th`,
 * `aria-sort` on it; ids numerically, names by collation, both ways), pagination is a window of
 * pages with First, Previous, Next, Last and ellipses and a page size, search answers as one
 * types, accents and case aside, and a list follows rows changed in another tab.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BATCH_PATH } from '../../src/contract/batch';
import { browserSuite, shownNames as shownNamesOf, signedInTab, signInWithForm } from '../helpers/browser';
import { api, signIn } from '../helpers/server';
import { openScreen } from '../helpers/tablet';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

const EXTRA = ['Élan', 'elan vital', 'ÉLANCÉ', 'Zoë', 'Zoe'];
/** Class names on the server: Class 1 .. Class 135 and a few with accents. */
let names: string[] = [];
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

// Before the sign-in, whose first pull brings them to the device.
beforeAll(async () => {
  const client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const wanted = [...Array.from({ length: 135 }, (_, i) => `Class ${i + 1}`), ...EXTRA];
  // Two batch requests (our extension) rather than 140 requests: one transaction each.
  for (let i = 0; i < wanted.length; i += 100) {
    const requests = wanted.slice(i, i + 100).map((className) => ({
      method: 'POST',
      path: 'Masterfilter/Classes/addclasses.php',
      json: { className },
    }));
    expect((await client.post(BATCH_PATH, { requests })).status).toBe(200);
  }
  names = (await client.get('Masterfilter/Classes/fetchclasses.php')).body.classes.map(
    (c: { class_name: string }) => c.class_name,
  );
});
signedInTab(suite, (tab) => {
  ({ context, page } = tab);
});

const shownNames = () => shownNamesOf(page);
const footer = () => page.locator('.list-foot p').textContent();
const nav = () => page.getByRole('navigation', { name: 'Pagination' });

describe('sorting by a column header', () => {
  it('sorts names by collation and ids numerically, both ways, with aria-sort on the header', async () => {
    await openScreen(page, suite.server.url, '/classes');
    const name = page.getByRole('columnheader', { name: /Class Name/ });
    const sno = page.getByRole('columnheader', { name: /S\.no/ });
    expect(await sno.getAttribute('aria-sort')).toBe('ascending');

    await name.getByRole('button').click();
    const ascending = [...names].sort(collator.compare);
    await expect.poll(shownNames).toEqual(ascending.slice(0, 10));
    expect(await name.getAttribute('aria-sort')).toBe('ascending');
    expect(await sno.getAttribute('aria-sort')).toBeNull();
    expect(page.url()).toContain('sort=class_name');

    await name.getByRole('button').click();
    await expect.poll(shownNames).toEqual([...ascending].reverse().slice(0, 10));
    expect(await name.getAttribute('aria-sort')).toBe('descending');

    // Ids order as numbers: the newest class (id 140 and more) first, not '99'.
    await sno.getByRole('button').click();
    await sno.getByRole('button').click();
    expect(await sno.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await shownNames())[0]).toBe(EXTRA.at(-1));
  });

  it('offers no sort on columns without an order', async () => {
    await openScreen(page, suite.server.url, '/books');
    // The popular toggle sorts by its status, like any status column.
    for (const header of ['S.no', 'Book Name', 'Class', 'Make Popular'])
      expect(await page.getByRole('columnheader', { name: header }).getByRole('button').count(), header).toBe(
        1,
      );
    for (const header of ['Cover Image', 'Edit', 'Delete'])
      expect(
        await page.getByRole('columnheader', { name: header, exact: true }).getByRole('button').count(),
        header,
      ).toBe(0);
  });
});

describe('pagination', () => {
  it('shows a window of pages with First, Previous, Next, Last and ellipses, never a button per page', async () => {
    await openScreen(page, suite.server.url, '/classes');
    const total = names.length;
    const pages = Math.ceil(total / 10);
    const labels = () => nav().locator('button, span').allTextContents();
    expect(await labels()).toEqual([
      'First',
      'Previous',
      '1',
      '2',
      '3',
      '4',
      '5',
      '…',
      String(pages),
      'Next',
      'Last',
    ]);
    expect(await nav().getByRole('button', { name: 'First' }).isDisabled()).toBe(true);

    await nav().getByRole('button', { name: 'Last' }).click();
    await expect.poll(footer).toBe(`Showing ${(pages - 1) * 10 + 1} to ${total} of ${total} entries`);
    expect(
      await nav()
        .getByRole('button', { name: `Page ${pages}` })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await nav().getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await nav().getByRole('button', { name: 'Page 10' }).click();
    await expect
      .poll(labels)
      .toEqual([
        'First',
        'Previous',
        '1',
        '…',
        '8',
        '9',
        '10',
        '11',
        '12',
        '…',
        String(pages),
        'Next',
        'Last',
      ]);
    expect(page.url()).toContain('page=10');

    await nav().getByRole('button', { name: 'First' }).click();
    await expect.poll(footer).toBe(`Showing 1 to 10 of ${total} entries`);
  });

  it('offers page sizes 10, 25, 50 and 100, and a new size goes to page 1', async () => {
    await openScreen(page, suite.server.url, '/classes?page=3');
    await expect.poll(footer).toBe(`Showing 21 to 30 of ${names.length} entries`);
    const show = page.getByRole('combobox', { name: /Show/ });
    expect(await show.locator('option').allTextContents()).toEqual(['10', '25', '50', '100']);
    await show.selectOption('25');
    await expect.poll(footer).toBe(`Showing 1 to 25 of ${names.length} entries`);
    expect(page.url()).toContain('limit=25');
    expect(await page.locator('tbody tr').count()).toBe(25);
  });
});

describe('search', () => {
  it('answers as one types, accents and case set aside, and resets to page 1', async () => {
    await openScreen(page, suite.server.url, '/classes?page=2');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.click();
    await search.pressSequentially('ELAN', { delay: 40 });
    await expect.poll(shownNames).toEqual(['Élan', 'elan vital', 'ÉLANCÉ']);
    await expect.poll(footer).toBe('Showing 1 to 3 of 3 entries');
    await search.press('Backspace');
    await search.pressSequentially('NCE');
    await expect.poll(shownNames).toEqual(['ÉLANCÉ']);
    await search.fill('zoe');
    await expect.poll(shownNames).toEqual(['Zoë', 'Zoe']);
  });
});

describe('the address of a typed search', () => {
  const searchParam = (name: string) => new URL(page.url()).searchParams.get(name);

  it('takes the search once typing pauses, and a page asked right after typing keeps it', async () => {
    await openScreen(page, suite.server.url, '/classes?page=3');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('zoe');
    await expect.poll(shownNames).toEqual(['Zoë', 'Zoe']);
    await expect.poll(() => [searchParam('search'), searchParam('page')]).toEqual(['zoe', null]);

    // 'Class 1' and 'Class 10' to 'Class 19', and 'Class 100' on: more than a page.
    await search.fill('class 1');
    await nav().getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => [searchParam('search'), searchParam('page')]).toEqual(['class 1', '2']);
    await expect.poll(footer).toMatch(/^Showing 11 to 20 of \d+ entries$/);
    expect(await search.inputValue()).toBe('class 1');
  });

  it('leaves the screen the administrator went to after typing alone', async () => {
    await openScreen(page, suite.server.url, '/classes');
    await page.getByRole('searchbox', { name: 'Search' }).fill('zoe');
    await page.getByRole('link', { name: 'Add Class' }).click();
    await page.waitForURL(/\/addclasses$/);
    // Longer than the pause after which a typed search would reach the address.
    await page.waitForTimeout(1000);
    expect(page.url()).toBe(`${suite.server.url}/addclasses`);
  });
});

describe('a list follows changes made elsewhere', () => {
  it('shows a class added in another tab without a reload', async () => {
    await openScreen(page, suite.server.url, '/classes?sort=class_name&dir=desc');
    await expect.poll(async () => (await shownNames())[0]).not.toBe('Zzz from the other tab');
    const other = await context.newPage();
    await openScreen(other, suite.server.url, '/addclasses');
    await other.getByLabel('Class Name').fill('Zzz from the other tab');
    await other.getByRole('button', { name: 'Add Class' }).click();
    await other.waitForURL(/\/classes/);
    await expect
      .poll(async () => (await shownNames())[0]?.replace('Pending', ''))
      .toBe('Zzz from the other tab');
    await expect.poll(footer).toBe(`Showing 1 to 10 of ${names.length + 1} entries`);
    await other.close();
  });
});

/**
 * Installed on a page before its scripts: the first list footer shown ('Showing a to b of n
 * entries', not the live list's 'Loading…'), whether it was in the
 * start snapshot (and the snapshot inert and hidden), and whether the live list was on screen
 * when the snapshot went.
 */
function watchStart() {
  const seen = {} as {
    first?: { footer: string; inSnapshot: boolean; inert: boolean; ariaHidden: string | null };
    liveWhenTakenDown?: boolean;
    snapshotSeen?: boolean;
  };
  (window as unknown as { __start: typeof seen }).__start = seen;
  let snapshot: Element | null = null;
  new MutationObserver(() => {
    const foot = document.querySelector('.list-foot p');
    snapshot = document.getElementById('start-snapshot') ?? snapshot;
    if (snapshot) seen.snapshotSeen = true;
    if (foot?.textContent?.startsWith('Showing') && !seen.first)
      seen.first = {
        footer: foot.textContent,
        inSnapshot: snapshot?.contains(foot) ?? false,
        inert: snapshot?.hasAttribute('inert') ?? false,
        ariaHidden: snapshot?.getAttribute('aria-hidden') ?? null,
      };
    if (snapshot && !snapshot.isConnected && seen.liveWhenTakenDown === undefined)
      seen.liveWhenTakenDown = document.querySelector('#root .list-foot p') !== null;
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

type StartSeen = {
  first?: { footer: string; inSnapshot: boolean };
  liveWhenTakenDown?: boolean;
  snapshotSeen?: boolean;
};

/** Opens `path` in a new tab of `on` with the network off (a relaunch offline); what it painted first. */
async function relaunchOffline(on: BrowserContext, path: string) {
  await on.setOffline(true);
  const tab = await on.newPage();
  await tab.addInitScript(watchStart);
  await tab.goto(`${suite.server.url}${path}`);
  // The live list's own footer, past its 'Loading…': the watcher has seen a footer by then.
  await expect.poll(() => tab.locator('#root .list-foot p').textContent()).toMatch(/^Showing/);
  await expect.poll(() => tab.locator('#start-snapshot').count()).toBe(0);
  const seen = await tab.evaluate(() => (window as unknown as { __start: StartSeen }).__start);
  await tab.close();
  await on.setOffline(false);
  return seen;
}

/** The start snapshot of `path` has been kept (the list shown and settled). */
const snapshotKept = (tab: Page, path: string) =>
  expect
    .poll(() => tab.evaluate((key) => localStorage.getItem(key) !== null, `startScreen:${path}`))
    .toBe(true);

describe('the start snapshot', () => {
  it('paints the list last shown on an offline relaunch, inert and hidden, until the live list replaces it', async () => {
    await openScreen(page, suite.server.url, '/classes?page=2');
    const shown = await footer();
    await snapshotKept(page, '/classes?page=2');
    // Kept for this width, with only what the screen draws at it: the menu button that only
    // narrower screens show is in the live top bar, not in the picture.
    const kept = await page.evaluate(() => {
      const value = localStorage.getItem('startScreen:/classes?page=2') ?? '';
      const space = value.indexOf(' ');
      const picture = document.createElement('div');
      picture.innerHTML = value.slice(space + 1);
      const toggle = document.querySelector('#root .nav-toggle');
      return {
        width: value.slice(0, space) === String(innerWidth),
        liveToggleHidden: toggle !== null && getComputedStyle(toggle).display === 'none',
        toggles: picture.querySelectorAll('.nav-toggle').length,
        footers: picture.querySelectorAll('.list-foot').length,
      };
    });
    expect(kept).toEqual({ width: true, liveToggleHidden: true, toggles: 0, footers: 1 });
    const seen = await relaunchOffline(context, '/classes?page=2');
    expect(seen.first).toEqual({ footer: shown, inSnapshot: true, inert: true, ariaHidden: 'true' });
    expect(seen.liveWhenTakenDown).toBe(true);
  });

  it('draws what shows where the live list draws it, without the rows below the first screen', async () => {
    // A short window: the page's last rows are below it.
    const short = { width: 1024, height: 560 };
    const tall = page.viewportSize() ?? { width: 1024, height: 768 };
    await page.setViewportSize(short);
    await openScreen(page, suite.server.url, '/classes?page=6');
    // Offline first: a pull of an earlier test's change drops the snapshots (rows changed),
    // and the list, settled again, is taken again at this size.
    await context.setOffline(true);
    await snapshotKept(page, '/classes?page=6');
    const tab = await context.newPage();
    await tab.setViewportSize(short);
    await tab.addInitScript(() => {
      // Where the table's header cells, rows and footer are, in the picture as it first shows.
      const boxes = (root: Element) => ({
        heads: [...root.querySelectorAll('thead th')].map((th) => [
          th.getBoundingClientRect().left,
          th.getBoundingClientRect().width,
        ]),
        rows: [...root.querySelectorAll('tbody tr td.cell-primary')].map(
          (td) => td.getBoundingClientRect().top,
        ),
        foot: root.querySelector('.list-foot')?.getBoundingClientRect().top,
        inView: [...root.querySelectorAll('tbody tr td.cell-primary')].filter(
          (td) => td.getBoundingClientRect().top < innerHeight,
        ).length,
      });
      const w = window as unknown as { __boxes?: unknown; __picture?: ReturnType<typeof boxes> };
      w.__boxes = boxes;
      new MutationObserver((_, observer) => {
        const picture = document.getElementById('start-snapshot');
        if (!picture?.querySelector('.list-foot')) return;
        w.__picture = boxes(picture);
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    await tab.goto(`${suite.server.url}/classes?page=6`);
    await expect.poll(() => tab.locator('#root .list-foot p').textContent()).toMatch(/^Showing 51 to 60/);
    await expect.poll(() => tab.locator('#start-snapshot').count()).toBe(0);
    type Boxes = { heads: number[][]; rows: number[]; foot: number; inView: number };
    const { picture, live } = await tab.evaluate(() => {
      const w = window as unknown as { __boxes: (root: Element) => Boxes; __picture: Boxes };
      return { picture: w.__picture, live: w.__boxes(document.getElementById('root') as Element) };
    });
    await tab.close();
    await context.setOffline(false);
    await page.setViewportSize(tall);
    // Only the rows in view were kept, each where the live list has it; the columns and the
    // footer (past the blank of the rows left out) too.
    expect(live.rows.length).toBe(10);
    expect(live.inView).toBeLessThan(10);
    expect(picture.rows.length).toBe(live.inView);
    const near = (a: number, b: number) => Math.abs(a - b) <= 1;
    expect(picture.rows.every((top, i) => near(top, live.rows[i]))).toBe(true);
    expect(picture.heads.length).toBe(live.heads.length);
    expect(
      picture.heads.every(
        ([left, width], i) => near(left, live.heads[i][0]) && near(width, live.heads[i][1]),
      ),
    ).toBe(true);
    expect(near(picture.foot, live.foot)).toBe(true);
  });

  it('never shows a list as it was before a change made in another tab', async () => {
    await openScreen(page, suite.server.url, '/classes?page=3');
    const before = Number((await footer())?.match(/of (\d+)/)?.[1]);
    await snapshotKept(page, '/classes?page=3');
    // Away from the list, so that only the change can drop its picture, not a new one taken.
    await openScreen(page, suite.server.url, '/homepage');
    const other = await context.newPage();
    await openScreen(other, suite.server.url, '/addclasses');
    await other.getByLabel('Class Name').fill('Added while a snapshot was kept');
    await other.getByRole('button', { name: 'Add Class' }).click();
    await other.waitForURL(/\/classes/);
    await other.close();
    const seen = await relaunchOffline(context, '/classes?page=3');
    expect(seen.first?.footer).toBe(`Showing 21 to 30 of ${before + 1} entries`);
  });

  it('is not painted after the service worker changed lists with no window open, and is dropped', async () => {
    await openScreen(page, suite.server.url, '/classes?page=4');
    await snapshotKept(page, '/classes?page=4');
    // What src/sw.ts sets when a Background Sync ran with no window to hear its writes.
    const stale = { name: 'startScreenStale', value: '1', url: suite.server.url };
    await context.addCookies([stale]);
    const seen = await relaunchOffline(context, '/classes?page=4');
    expect(seen.first?.inSnapshot).toBe(false);
    // The app, started again (on a screen that takes no picture), drops them with the cookie.
    await openScreen(page, suite.server.url, '/homepage');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('startScreen:/classes?page=4')))
      .toBeNull();
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === stale.name)).toBe(false);
  });

  it('is not painted for the next administrator after a sign-out', async () => {
    const own = await suite.browser.newContext();
    const tab = await own.newPage();
    await signInWithForm(tab, suite.server.url);
    await openScreen(tab, suite.server.url, '/classes');
    await snapshotKept(tab, '/classes');
    await tab.getByRole('button', { name: 'Logout' }).click();
    await tab.waitForURL(/\/login$/);
    await signInWithForm(tab, suite.server.url);
    const seen = await relaunchOffline(own, '/classes');
    // No picture at any moment of the start, whatever the live list painted first.
    expect(seen.snapshotSeen ?? false).toBe(false);
    await own.close();
  });
});
