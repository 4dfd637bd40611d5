/**
 * Bulk actions in Chromium, real IndexedDB and the list worker, against a
 * server with the demo data and 25 more students: 'Select page' and 'Select all N matching'
 * (kept across pages, cleared by a search), Disable selected offline and its Undo (the rows as
 * they were, nothing left to send), Delete selected with classes still used reported and kept
 * selected, and books assigned to several students, delivered to the server (the bar and the
 * book dialog checked with axe-core); on a touch tablet, ticking a row never moves the rows and
 * the bar stays in view while the list scrolls.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { axeFindings } from '../helpers/axe';
import { DIST, launchBrowser, signInWithForm, storedCount } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { LANDSCAPE, openScreen, PORTRAIT, tabletContext } from '../helpers/tablet';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  // 25 more students (every third disabled), before the sign-in whose first pull brings them.
  await server.query(
    `INSERT INTO students (student_name, email, password, contact_no, school_id, country, status)
     SELECT 'Pupil ' || n, 'pupil' || n || '@example.org', 'x', '98765 43210',
            (SELECT min(school_id) FROM schools), 'IN', CASE WHEN n % 3 = 0 THEN 'Disabled' ELSE 'Enabled' END
     FROM generate_series(1, 25) AS n`,
  );
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, server.url);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

const bar = () => page.getByRole('region', { name: 'Selected rows' });
const barStatus = () => bar().getByRole('status').textContent();
const rowBoxes = () => page.locator('tbody').getByRole('checkbox', { name: /^Select / });
const statusButtons = () => page.locator('tbody td[data-label="Status"] button').allTextContents();

/** The local store's outbox, read straight from IndexedDB. */
const waiting = () => storedCount(page, 'outbox');

describe('selecting', () => {
  it('selects a page, then all matching; the selection survives paging and a search clears it', async () => {
    await openScreen(page, server.url, '/students');
    await page.getByRole('checkbox', { name: 'Select page' }).check();
    await expect.poll(barStatus).toBe('10 selected');
    expect(await rowBoxes().evaluateAll((boxes) => boxes.every((b) => (b as HTMLInputElement).checked))).toBe(
      true,
    );
    await bar().getByRole('button', { name: 'Select all 28 matching' }).click();
    await expect.poll(barStatus).toBe('All 28 matching selected');

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.url()).toContain('page=2');
    await expect
      .poll(() =>
        rowBoxes().evaluateAll(
          (boxes) => boxes.length > 0 && boxes.every((b) => (b as HTMLInputElement).checked),
        ),
      )
      .toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Select page' }).isChecked()).toBe(true);

    await page.getByRole('searchbox', { name: 'Search' }).fill('Kabir');
    await expect.poll(() => bar().count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await expect.poll(() => rowBoxes().count()).toBe(10);
    expect(await rowBoxes().evaluateAll((boxes) => boxes.some((b) => (b as HTMLInputElement).checked))).toBe(
      false,
    );
  });
});

describe('the bar on a touch tablet', () => {
  /** Where the list's rows are, and whether the bar lies inside the visible part of the screen. */
  const layout = (tablet: Page) =>
    tablet.evaluate(() => {
      const main = document.getElementById('main')!;
      const shown = main.getBoundingClientRect();
      const bar = document.querySelector('[aria-label="Selected rows"]')?.getBoundingClientRect();
      return {
        rows: Array.from(document.querySelectorAll('tbody tr'), (tr) => tr.getBoundingClientRect().top),
        barInView: bar ? bar.top >= shown.top - 1 && bar.bottom <= shown.bottom + 1 : null,
        scrolls: main.scrollHeight > main.clientHeight,
      };
    });

  // Half the tablet's height (as with the on-screen keyboard up), so ten rows scroll; one touch
  // tablet turned from portrait to landscape (one sign-in for both).
  it('at 768 and 1024 wide, ticking rows never moves them and the bar stays in view while the list scrolls', async () => {
    const tabletView = await tabletContext(browser, { ...PORTRAIT, height: PORTRAIT.height / 2 });
    const tablet = await tabletView.newPage();
    try {
      await signInWithForm(tablet, server.url);
      for (const viewport of [
        { ...PORTRAIT, height: PORTRAIT.height / 2 },
        { ...LANDSCAPE, height: LANDSCAPE.height / 2 },
      ]) {
        const size = `${viewport.width} × ${viewport.height}`;
        await tablet.setViewportSize(viewport);
        await openScreen(tablet, server.url, '/students');
        const boxes = tablet.locator('tbody').getByRole('checkbox', { name: /^Select / });
        const before = await layout(tablet);
        expect(before.scrolls, size).toBe(true);
        expect(before.barInView, size).toBeNull();

        await boxes.nth(0).tap();
        await tablet.getByRole('region', { name: 'Selected rows' }).waitFor();
        const after = await layout(tablet);
        expect(after.rows, size).toEqual(before.rows);
        expect(after.barInView, size).toBe(true);
        // The next tap lands on the row it was meant for.
        await boxes.nth(1).tap();
        expect(await boxes.nth(1).isChecked(), size).toBe(true);

        for (const end of ['bottom', 'middle', 'top'] as const) {
          await tablet.evaluate((where) => {
            const main = document.getElementById('main')!;
            const bottom = main.scrollHeight - main.clientHeight;
            main.scrollTop = where === 'bottom' ? bottom : where === 'middle' ? bottom / 2 : 0;
          }, end);
          expect((await layout(tablet)).barInView, `${size}, scrolled to the ${end}`).toBe(true);
        }
      }
    } finally {
      await tabletView.close();
    }
  });
});

describe('acting on the selection', () => {
  it('disables the selected students offline as one notice whose Undo leaves nothing to send', async () => {
    await openScreen(page, server.url, '/students');
    await expect.poll(() => waiting()).toBe(0);
    const before = await statusButtons();
    await context.setOffline(true);
    try {
      await page.getByRole('checkbox', { name: 'Select page' }).check();
      await bar().getByRole('button', { name: 'Disable selected' }).click();
      const disabled = before.filter((b) => b === 'Disable').length;
      const notice = page.getByRole('status').filter({ hasText: `${disabled} students disabled` });
      await notice.waitFor();
      await expect.poll(statusButtons).toEqual(before.map(() => 'Enable'));
      expect(await waiting()).toBe(disabled);

      await notice.getByRole('button', { name: 'Undo' }).click();
      await page.getByText(`Undone for ${disabled} students`).waitFor();
      await expect.poll(statusButtons).toEqual(before);
      expect(await waiting()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
  });

  it('deletes the selected classes after asking, and reports those still used, which stay selected', async () => {
    await openScreen(page, server.url, '/classes');
    await page.getByRole('checkbox', { name: 'Select page' }).check();
    const question = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await bar().getByRole('button', { name: 'Delete selected' }).click();
    expect(await question).toBe('Delete 10 classes?');
    const report = bar().getByRole('alert');
    await report.waitFor();
    const text = (await report.textContent()) ?? '';
    const refused = Number(/(\d+) could not be deleted/.exec(text)?.[1]);
    expect(refused).toBeGreaterThan(0);
    expect(text).toMatch(
      /Class 1: This class cannot be deleted: \w+ still belong to it\. Delete them first\./,
    );
    await page
      .getByRole('status')
      .filter({ hasText: `${10 - refused} classes deleted` })
      .waitFor();
    await expect.poll(barStatus).toBe(`${refused} selected`);
    // The others reach the server.
    await expect
      .poll(async () => (await server.query('SELECT count(*)::int AS n FROM classes'))[0], {
        timeout: 20_000,
      })
      .toEqual({ n: 12 - (10 - refused) });
  });

  it('assigns a book to several students, delivered to the server', async () => {
    await openScreen(page, server.url, '/students');
    const names = ['Kabir Shah', 'Ananya Gupta', 'Rohan Das'];
    for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await expect.poll(barStatus).toBe('3 selected');
    await bar().getByRole('button', { name: 'Assign books' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign books' });
    const book = dialog.getByRole('checkbox').first();
    await book.waitFor();
    // The bar and the dialog meet WCAG 2.2 A and AA as every screen does (accessibility.test.ts).
    expect((await axeFindings(page, 'bulk assign dialog')).violations).toEqual([]);
    const [{ book_id: bookId }] = await server.query<{ book_id: number }>(
      "SELECT book_id FROM books WHERE $1 LIKE book_name || '%' ORDER BY length(book_name) DESC LIMIT 1",
      [((await dialog.locator('li').first().textContent()) ?? '').trim()],
    );
    await book.check();
    await dialog.getByRole('button', { name: 'Assign to 3 students' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Books assigned to \d students/ })
      .waitFor();
    await expect
      .poll(
        async () =>
          (
            await server.query(
              `SELECT count(*)::int AS n FROM student_books sb JOIN students s USING (student_id)
               WHERE sb.book_id = $1 AND s.student_name = ANY($2)`,
              [bookId, names],
            )
          )[0],
        { timeout: 20_000 },
      )
      .toEqual({ n: 3 });
  });
});
