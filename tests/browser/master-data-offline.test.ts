/**
 * Master data made offline through the real screens, in Chromium against the built app and
 * the real server: one offline session adds a class, a subject, a series in them, a book with
 * a cover, a section, a unit in that section and a chapter with an image, each chosen in the
 * cascading selects of the next form. On reconnect all reach the server once, files included.
 */
import type { BrowserContext, Dialog, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, CONNECTED, shownNames, signInWithForm } from '../helpers/browser';
import { api, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(0)]);

beforeAll(async () => {
  context = await suite.browser.newContext();
  page = await context.newPage();

  await signInWithForm(page, suite.server.url);
});

async function serverList(path: string, field: string): Promise<Record<string, unknown>[]> {
  const reply = await api(suite.server.apiRoot, await signIn(suite.server.apiRoot)).get(path);
  return reply.body[field];
}

async function open(path: string, heading: string): Promise<void> {
  await page.goto(`${suite.server.url}${path}`);
  await expect.poll(() => page.getByRole('heading', { name: heading }).count()).toBe(1);
}

async function choose(label: string, option: string): Promise<void> {
  // By accessible name, which leaves out the required mark.
  const select = page.getByRole('combobox', { name: label, exact: true });

  await expect.poll(() => select.locator('option', { hasText: option }).count()).toBeGreaterThan(0);
  await select.selectOption({ label: option });
}

async function submit(button: string, list: string): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(new RegExp(`${list}(\\?|$)`));
}

async function chooseParents(levels: [string, string][]): Promise<void> {
  for (const [label, option] of levels) await choose(label, option);
}

const PARENTS: [string, string][] = [
  ['Class', 'Class 9'],
  ['Subject', 'Physics'],
  ['Series', 'Physics Today'],
];

describe('master data offline, through the screens', () => {
  it('adds the whole chain offline with cascading selects, a cover and a chapter image', async () => {
    await context.setOffline(true);

    await open('/addclasses', 'Add Class');
    await page.getByLabel('Class Name').fill('Class 9');
    await submit('Add Class', '/classes');

    await open('/addsubjects', 'Add Subject');
    await page.getByLabel('Subject Name').fill('Physics');
    await page.getByRole('textbox', { name: 'Subject Content' }).click();
    await page.keyboard.type('Forces and motion');
    await submit('Add Subject', '/subjects');

    await open('/addseries', 'Add Series');
    await choose('Class', 'Class 9');
    await choose('Subject', 'Physics');
    await page.getByLabel('Series Name').fill('Physics Today');
    await submit('Add Series', '/series');

    await open('/addbooks', 'Add Book');
    // Series options appear only once class and subject are chosen.
    expect(await page.getByRole('combobox', { name: 'Series', exact: true }).locator('option').count()).toBe(
      1,
    );
    await chooseParents(PARENTS);
    await page.getByLabel('Book Name').fill('Physics Today 9');
    await page.getByLabel('Book Code').fill('PT9');
    await page
      .getByLabel('Book Cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await submit('Add Book', '/books');
    // The cover chosen offline shows as a thumbnail from the local copy.
    const thumb = page.getByRole('row').filter({ hasText: 'Physics Today 9' }).locator('img');
    await expect.poll(() => thumb.getAttribute('src')).toMatch(/^blob:/);

    await open('/addsections', 'Add Section');
    await chooseParents([...PARENTS, ['Book', 'Physics Today 9']]);
    await page.getByLabel('Section Name').fill('Mechanics');
    await submit('Add Section', '/sections');

    await open('/addunits', 'Add Unit');
    await chooseParents([...PARENTS, ['Book', 'Physics Today 9'], ['Section', 'Mechanics']]);
    // Changing an upper level clears the lower ones.
    await choose('Class', 'Class 9');
    await page.getByRole('combobox', { name: 'Class', exact: true }).selectOption({ label: 'Select Class' });
    expect(await page.getByRole('combobox', { name: 'Book', exact: true }).inputValue()).toBe('');

    await chooseParents([...PARENTS, ['Book', 'Physics Today 9'], ['Section', 'Mechanics']]);
    await page.getByLabel('Unit Title').fill('Motion');
    await submit('Add Unit', '/units');

    await open('/addchapters', 'Add Chapter');
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    // The notices' alert region is on every page now (it must exist before a notice): the form's own alert.
    const required = page.getByRole('alert').filter({ hasText: 'Please fill in all required fields' });
    await expect.poll(() => required.textContent()).toBe('Please fill in all required fields');
    await chooseParents([
      ...PARENTS,
      ['Book', 'Physics Today 9'],
      ['Section', 'Mechanics'],
      ['Unit', 'Motion'],
    ]);
    await page.getByLabel('Chapter Name').fill('Speed');
    await page.getByLabel('Chapter Description').fill('Distance over time');
    await page
      .getByLabel('Chapter Image')
      .setInputFiles({ name: 'speed.png', mimeType: 'image/png', buffer: PNG });
    await submit('Add Chapter', '/chapters');

    // A cold start offline still shows everything, marked pending.
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Speed' });
    await expect.poll(() => row.getByText('Pending').count()).toBe(1);
    expect(await row.textContent()).toContain('Class 9 / Physics / Physics Today');
    await expect.poll(() => page.getByTestId('sync-status').textContent()).toMatch(/7 waiting/);
  });

  it('delivers everything once on reconnect, files included', async () => {
    await context.setOffline(false);
    await expect
      .poll(async () => (await serverList('Masterfilter/Chapters/fetchchapters.php', 'chapters')).length, {
        timeout: 30_000,
      })
      .toBe(1);
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 20_000 })
      .toMatch(CONNECTED);
    const [book] = await serverList('Masterfilter/Book/fetchbooks.php', 'books');
    const [unit] = await serverList('Masterfilter/Units/fetchunits.php', 'units');
    const [chapter] = await serverList('Masterfilter/Chapters/fetchchapters.php', 'chapters');
    expect(chapter).toMatchObject({ chapter_title: 'Speed', unit_id: unit.unit_id, book_id: book.book_id });
    expect(book.book_cover).toEqual(expect.any(String));
    for (const [path, field] of [
      ['Masterfilter/Classes/fetchclasses.php', 'classes'],
      ['Masterfilter/Subjects/fetchsubjects.php', 'subjects'],
      ['Masterfilter/Series/fetchseries.php', 'series'],
      ['Masterfilter/Book/fetchbooks.php', 'books'],
      ['Masterfilter/Sections/fetchsections.php', 'sections'],
      ['Masterfilter/Units/fetchunits.php', 'units'],
    ]) {
      expect(await serverList(path, field), path).toHaveLength(1);
    }
    // After the pull, the cover shows from the server's upload folder.
    await open('/books', 'Manage Books');
    const thumb = page.getByRole('row').filter({ hasText: 'Physics Today 9' }).locator('img');
    await expect
      .poll(() => thumb.getAttribute('src'), { timeout: 10_000 })
      .toContain('/api/uploads/book_cover/');
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth >= 0))
      .toBe(true);
  });

  it('toggles Make Popular with the spec’s labels and messages', async () => {
    await open('/books', 'Manage Books');
    const row = page.getByRole('row').filter({ hasText: 'Physics Today 9' });
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Book enabled successfully' }).count())
      .toBe(1);
    await expect.poll(() => row.getByRole('button', { name: 'Disable' }).count()).toBe(1);
    // The row turns at once; the change reaches the server through the outbox a moment later
    // (under load, after the button has turned).
    await expect
      .poll(async () => (await serverList('Masterfilter/Book/fetchbooks.php', 'books'))[0]?.status, {
        timeout: 20_000,
      })
      .toBe('Enabled');
  });

  it('sorts units by a clicked header, toggling the direction with an arrow', async () => {
    await open('/addunits', 'Add Unit');
    await chooseParents([...PARENTS, ['Book', 'Physics Today 9']]);
    await page.getByLabel('Unit Title').fill('Acceleration');
    await submit('Add Unit', '/units');
    const titles = () => shownNames(page);
    const header = page.getByRole('button', { name: /^Unit Title/ });
    await header.click();
    await expect
      .poll(async () => (await titles()).map((t) => t.replace('Pending', '')))
      .toEqual(['Acceleration', 'Motion']);
    expect(await header.textContent()).toContain('▲');
    await header.click();
    await expect
      .poll(async () => (await titles()).map((t) => t.replace('Pending', '')))
      .toEqual(['Motion', 'Acceleration']);
    expect(await header.textContent()).toContain('▼');
  });

  it('refuses at once to delete a class that records still name, counting every kind, without asking first', async () => {
    await open('/classes', 'Manage Classes');
    let asked = false;
    const onDialog = (dialog: Dialog) => {
      asked = true;
      void dialog.dismiss();
    };
    page.on('dialog', onDialog);
    await page
      .getByRole('row')
      .filter({ hasText: 'Class 9' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to delete class' });
    await expect
      .poll(() => alert.textContent())
      .toBe(
        'Failed to delete classThis class cannot be deleted: 1 series, 1 book, 1 section, 2 units and 1 chapter belong to it. Delete them first.×',
      );
    page.off('dialog', onDialog);
    expect(asked).toBe(false);
    expect(await page.getByRole('row').filter({ hasText: 'Class 9' }).count()).toBe(1);
  });
});
