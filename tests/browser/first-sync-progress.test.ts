/**
 * A first sync's progress, in Chromium against the built app: while the
 * students arrive in pages, the top bar says how many of how many, the dashboard shows a bar
 * for the list, and a polite live region says it once; when the last page is written all of
 * it goes and the region says the list was received. The pull's second page is held back
 * by the test (a route), so the state in between is certain. A modest number of students (two
 * pages); the figures at 100,000 are the benchmark's (bench/first-sync.mjs). The pull runs in
 * the sync worker, not on the window's main thread, whose taps it would otherwise hold up.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFieldOf } from '../../src/contract/endpoints';
import { studentEntity } from '../../src/contract/entities';
import { PULL_ALL_PATH } from '../../src/contract/wire';
import { PULL_SIZES } from '../../src/sync/pull/pull';
import { CONNECTED, DIST, launchBrowser, signInWithForm } from '../helpers/browser';
import { startSeededServer } from '../helpers/scale-server';
import type { TestServer } from '../helpers/server';

/** One app page (the server's most, 5,000, other lists first) and a second one; the demo data has three students. */
const PAGE = PULL_SIZES.deltaPage;
const SEEDED = PAGE + 100;
const TOTAL = SEEDED + 3;

let server: TestServer;

/** The pull's requests in a context's resource timeline: where the pull ran. */
const pullRequestsIn = (where: Pick<Page, 'evaluate'>) =>
  where.evaluate(
    (path) => performance.getEntriesByType('resource').filter((e) => e.name.includes(path)).length,
    PULL_ALL_PATH,
  );
let context: BrowserContext;
let page: Page;
let release: () => void;
let firstPageStudents = 0;
const released = new Promise<void>((r) => {
  release = r;
});

beforeAll(async () => {
  server = await startSeededServer(SEEDED, { staticDir: DIST });
  const browser = await launchBrowser();
  context = await browser.newContext();
  // The first page passes (its students counted); every page after it waits until the test lets it go.
  let pages = 0;
  await context.route(`**/${PULL_ALL_PATH}?*`, async (route: Route) => {
    if (++pages > 1) {
      await released;
      return route.continue();
    }
    const response = await route.fetch();
    const body = await response.json();
    const students = body.changes.find((c: { entity: string }) => c.entity === studentEntity.name);
    firstPageStudents = students.reply[listFieldOf(studentEntity)].length;
    await route.fulfill({ response, json: body });
  });
  page = await context.newPage();
  return async () => {
    release();
    await browser.close();
  };
});
afterAll(() => server?.close());

describe('a first sync of many students', () => {
  it('shows rows received of the total in the top bar and on the dashboard, and says it politely', async () => {
    await signInWithForm(page, server.url);
    const status = page.getByTestId('sync-status');
    await expect.poll(() => firstPageStudents, { timeout: 30_000 }).toBeGreaterThan(PAGE / 2);
    const receiving = `Students ${firstPageStudents.toLocaleString('en')} of ${TOTAL.toLocaleString('en')}`;
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain(receiving);
    const row = page.getByTestId('receiving-students');
    await expect.poll(() => row.textContent()).toContain(receiving);
    const bar = page.getByRole('progressbar', { name: receiving });
    expect(await bar.getAttribute('value')).toBe(String(firstPageStudents));
    expect(await bar.getAttribute('max')).toBe(String(TOTAL));
    const spoken = page.getByTestId('sync-progress-announcement');
    expect(await spoken.getAttribute('role')).toBe('status');
    await expect.poll(() => spoken.textContent()).toBe(`Receiving ${receiving}`);

    release();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(CONNECTED);
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => spoken.textContent()).toBe('Students received');
    expect(await pullRequestsIn(page)).toBe(0);
    const syncWorker = page.workers().find((w) => w.url().includes('sync-worker'));
    expect(syncWorker && (await pullRequestsIn(syncWorker))).toBeGreaterThan(1);
    // Every student arrived: the list says so.
    await page.goto(`${server.url}/students`);
    await expect.poll(() => page.getByText(`of ${TOTAL} entries`).count(), { timeout: 30_000 }).toBe(1);
  });
});
