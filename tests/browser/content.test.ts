/**
 * Content through the real screens in Chromium, against the real server (seeded): the offline
 * chain chapter, pages with several images (previewed before saving), a library resource with a
 * file for that chapter and a question with an image, all saved offline and delivered on
 * reconnect; a page number held unsaved until its save button and a page image opened large;
 * the chosen resource type's entry type changing the form's inputs; an upload's progress on the
 * form that saved it and on the outbox screen of another tab; over a slow line, progress as the
 * bytes go and, once the form is left and the line cut, the same story on the notice, the list,
 * the top bar and the outbox; a match question's items one a
 * line on its form and in the list; the question edit on a server without it.
 */
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTED, DIST, launchBrowser, signInWithForm } from '../helpers/browser';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
  page = await context.newPage();
  await signInWithForm(page, server.url);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
// A test that fails offline must not leave the next one offline.
afterEach(() => context.setOffline(false));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (name: string, size = 600) => {
  const buffer = Buffer.alloc(size);
  buffer.set(PNG);
  return { name, mimeType: 'image/png', buffer };
};
const pdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n%test\n'),
});

async function choose(label: string, option: string): Promise<void> {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await expect.poll(() => select.locator('option', { hasText: option }).count()).toBeGreaterThan(0);
  await select.selectOption({ label: option });
}

/** Class 1 / English / Sunrise English / Sunrise English Reader 1, as the cascade offers them. */
async function chooseBook(): Promise<void> {
  await choose('Class', 'Class 1');
  await choose('Subject', 'English');
  await choose('Series', 'Sunrise English');
  await choose('Book', 'Sunrise English Reader 1');
}

/** Add Resource with a 9 MB video (above the 4 MB from which files travel ahead), saved. */
async function saveVideoResource(title: string, fileName: string): Promise<void> {
  await page.goto(`${server.url}/addresources`);
  await page.getByRole('heading', { name: 'Add Resource' }).waitFor();
  await chooseBook();
  await page.getByLabel('Resource Title').fill(title);
  await choose('Resource Type', 'Video Link');
  const video = randomBytes(9 * 1024 * 1024);
  video.set([0, 0, 0, 0x18, ...Buffer.from('ftypmp42')]);
  await page.getByLabel('Video File').setInputFiles({ name: fileName, mimeType: 'video/mp4', buffer: video });
  await page.getByRole('button', { name: 'Save Resource' }).click();
}

async function serverRows(path: string, field: string): Promise<Record<string, unknown>[]> {
  const client = api(server.apiRoot, await signIn(server.apiRoot));
  return (await client.get(path)).body[field];
}

async function serverPage(id: number): Promise<Record<string, unknown>> {
  const client = api(server.apiRoot, await signIn(server.apiRoot));
  return (await client.get('Resources/getpagedetails.php', { page_id: id })).body.page;
}

const notice = (text: string) => page.locator('.notice').filter({ hasText: text });

describe('content through the screens', () => {
  it('offline: a chapter, two pages of it with previewed images, a resource with a file and a question with an image reach the server on reconnect', async () => {
    await context.setOffline(true);
    await page.goto(`${server.url}/addchapters`);
    await page.getByRole('heading', { name: 'Add Chapter' }).waitFor();
    await chooseBook();
    await page.getByLabel('Chapter Name').fill('Screen Chapter');
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await page.waitForURL(/\/chapters(\?|$)/);

    // The book picker leads to the book's pages and their add form.
    await page.goto(`${server.url}/bookpages`);
    const book = page.getByRole('row').filter({ hasText: 'Sunrise English Reader 1' });
    await book.getByRole('link', { name: '+ Add Pages' }).click();
    await page.getByRole('heading', { name: 'Add Book Pages' }).waitFor();
    expect(await page.locator('.screen-parent').textContent()).toBe('Book: Sunrise English Reader 1');
    await page.getByLabel('Page Title').fill('Screen page');
    await choose('Chapter', 'Screen Chapter');
    await page.getByLabel('Page Image').setInputFiles([png('first.png'), png('second.png', 700)]);
    await expect.poll(() => page.getByRole('img', { name: /^Chosen Page Image: / }).count()).toBe(2);
    // One taken out and chosen again: the order chosen is the order of the pages.
    await page.getByRole('button', { name: 'Remove first.png' }).click();
    await page.getByLabel('Page Image').setInputFiles([png('first.png')]);
    expect(await page.locator('.files-chosen li').allTextContents()).toEqual([
      expect.stringContaining('second.png'),
      expect.stringContaining('first.png'),
    ]);
    // Two pages from page 3 would give the book a second page 3: said before saving.
    const warning = page.locator('#field-page_number-warning');
    await page.getByLabel('Page Number').fill('3');
    await expect
      .poll(() => warning.textContent())
      .toMatch(/^Page Number 3 is already used in this book by “[^”]+”\.$/);
    await page.getByLabel('Page Number').fill('');
    await expect.poll(() => warning.count()).toBe(0);
    await page.getByRole('button', { name: 'Add Pages' }).click();
    await page.waitForURL(/\/bookpages(\?|$)/);

    await page.goto(`${server.url}/managebookpages/${btoa('1')}`);
    const pending = page.getByRole('row').filter({ hasText: 'Screen page' });
    await expect.poll(() => pending.count()).toBe(2);
    expect(
      await pending.evaluateAll((rows) =>
        rows.map((r) => (r.querySelector('input:not([type="checkbox"])') as HTMLInputElement).value),
      ),
    ).toEqual(['4', '5']);

    await page.goto(`${server.url}/addresources`);
    await page.getByRole('heading', { name: 'Add Resource' }).waitFor();
    await chooseBook();
    await choose('Chapter', 'Screen Chapter');
    await page.getByLabel('Resource Title').fill('Screen worksheet');
    await choose('Resource Type', 'Worksheet');
    await page.getByLabel('Document', { exact: true }).setInputFiles(pdf('sheet.pdf'));
    await page.getByRole('button', { name: 'Save Resource' }).click();
    await page.waitForURL(/\/library(\?|$)/);
    const resource = page.getByRole('row').filter({ hasText: 'Screen worksheet' });
    await expect
      .poll(() => resource.locator('td:not(.cell-select)').allTextContents())
      .toEqual([
        expect.any(String),
        expect.stringContaining('Screen worksheet'),
        'Worksheet',
        'Sunrise English Reader 1, Screen Chapter',
        'Yes',
        'EditDelete',
      ]);

    await page.goto(`${server.url}/addquestion`);
    await page.getByRole('heading', { name: 'Add Question' }).waitFor();
    await chooseBook();
    await choose('Chapter', 'Screen Chapter');
    await choose('Question Type', 'True or False');
    expect(await page.getByLabel('Option 1').count()).toBe(0);
    await page.getByLabel('Enter Question').fill('Is this screen offline?');
    await page.getByLabel('Question Image').setInputFiles(png('q.png'));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/question-bank(\?|$)/);
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Is this screen offline?' }).count())
      .toBe(1);

    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    const chapters = async () =>
      (await serverRows('Masterfilter/Chapters/fetchchapters.php', 'chapters')).filter(
        (c) => c.chapter_title === 'Screen Chapter',
      );
    await expect.poll(async () => (await chapters()).length, { timeout: 30_000 }).toBe(1);
    const chapterId = (await chapters())[0].chapter_id;
    const question = async () =>
      (await serverRows('Resources/fetchquestion.php', 'questions')).find(
        (q) => q.question_title === 'Is this screen offline?',
      );
    await expect.poll(async () => (await question())?.chapter_id, { timeout: 30_000 }).toBe(chapterId);
    expect(String((await question())?.question_image)).toMatch(/\.png$/);
    const pages = (await serverRows('Resources/fetchbookpages.php', 'bookPages'))
      .filter((p) => p.page_title === 'Screen page')
      .map((p) => [p.page_number, p.chapter_id]);
    expect(pages.sort()).toEqual([
      [4, chapterId],
      [5, chapterId],
    ]);
    const [res] = (await serverRows('Resources/Library/fetchlibrary.php', 'libraryResources')).filter(
      (r) => r.resource_title === 'Screen worksheet',
    );
    expect(res.chapter_id).toBe(chapterId);
  });

  it('a page number is held unsaved until its save button; a page image opens large', async () => {
    await page.goto(`${server.url}/managebookpages/${btoa('1')}`);
    const row = page.getByRole('row').filter({ hasText: 'Good Morning: practice' });
    const number = row.getByRole('spinbutton');
    await expect.poll(() => number.inputValue()).toBe('2');
    // A number another page of the book has is said before saving, and still accepted (spec).
    await number.fill('1');
    const used = row.getByRole('status');
    await expect
      .poll(() => used.textContent())
      .toBe('Page Number 1 is already used in this book by “Good Morning: opener”.');
    await number.fill('12');
    await expect.poll(() => used.count()).toBe(0);
    await expect.poll(() => row.getByText('Not saved').count()).toBe(1);
    expect((await serverPage(2)).page_number).toBe(2);
    await row.getByRole('button', { name: /^Save page number/ }).click();
    await notice('Page number updated successfully').waitFor();
    await expect.poll(async () => (await serverPage(2)).page_number).toBe(12);

    const opener = page.getByRole('button', { name: 'Show large: Page Image: Good Morning: opener' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Page Image: Good Morning: opener' });
    await dialog.waitFor();
    expect(await dialog.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    page.once('dialog', (d) => {
      // The spec's question, word for word, then the page it is about.
      expect(d.message()).toMatch(/^Are you sure you want to delete this page\?\n\n.*opener/);
      void d.accept();
    });
    await page
      .getByRole('row')
      .filter({ hasText: 'Good Morning: opener' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await notice('Page deleted successfully').waitFor();
  });

  it('the chosen resource type’s entry type decides the inputs', async () => {
    await page.goto(`${server.url}/addresources`);
    await page.getByRole('heading', { name: 'Add Resource' }).waitFor();
    const shown = async (label: string) => (await page.getByLabel(label, { exact: true }).count()) > 0;
    const own = [
      'Link',
      'Theory Notes',
      'Document',
      'Document Link',
      'Iframe Link',
      'Audio File',
      'Audio Link',
    ];
    const visible = async () => (await Promise.all(own.map(shown))).flatMap((s, i) => (s ? [own[i]] : []));
    expect(await visible()).toEqual([]);
    const cases: [string, string[]][] = [
      ['Video Link', ['Link']],
      ['Worksheet', ['Document', 'Document Link']],
      ['Notes with Link', ['Link', 'Theory Notes']],
      ['Interactive Activity', ['Iframe Link']],
      ['Theory Notes', ['Theory Notes']],
      ['Audio Lesson', ['Audio File', 'Audio Link']],
    ];
    for (const [type, inputs] of cases) {
      await choose('Resource Type', type);
      await expect
        .poll(visible, { message: type })
        .toEqual([...inputs].sort((a, b) => own.indexOf(a) - own.indexOf(b)));
      // What every type offers stays.
      for (const always of ['Category', 'Video File', 'Video Link', 'Answer Keys', 'Thumbnail'])
        expect(await shown(always), `${type}: ${always}`).toBe(true);
    }
    expect(await page.getByLabel('Audio File', { exact: true }).getAttribute('accept')).toBe(
      '.mp3,audio/mpeg',
    );
    await choose('Resource Type', 'Interactive Activity');
    await page.getByLabel('Iframe Link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save Resource' }).click();
    await expect
      .poll(() => page.locator('#field-iframe_link-error').textContent())
      .toBe('Iframe Link must be a web address starting with http:// or https://');
  });

  it('shows an upload’s progress, percent and size, on the form and on the outbox screen of another tab', async () => {
    // The second chunk waits until both screens have shown the first one's progress.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let patches = 0;
    await context.route('**/api/uploads/resumable/**', async (route: Route) => {
      if (route.request().method() === 'PATCH' && ++patches === 2) await held;
      await route.continue();
    });
    const outbox = await context.newPage();
    await outbox.goto(`${server.url}/outbox`);
    await outbox.getByRole('heading', { name: 'Changes waiting to be sent' }).waitFor();

    await saveVideoResource('Long lesson video', 'lesson.mp4');

    // The first chunk's bytes: a window sends 5 MB chunks, the service worker a first 256 KB.
    const line = /Video File “lesson\.mp4”: [1-9]\d*% \([\d.]+ [KM]B of 9\.0 MB\)/;
    try {
      await expect
        .poll(() => page.locator('.sending-files').textContent(), { timeout: 30_000 })
        .toMatch(line);
      const shown = line.exec((await page.locator('.sending-files').textContent()) ?? '')?.[0] ?? '';
      await expect.poll(() => outbox.locator('tbody').textContent(), { timeout: 30_000 }).toContain(shown);
    } finally {
      release();
    }
    await page.waitForURL(/\/library(\?|$)/, { timeout: 30_000 });
    await notice('Resource added successfully').waitFor();
    await outbox.close();
    await context.unroute('**/api/uploads/resumable/**');
    const [row] = (await serverRows('Resources/Library/fetchlibrary.php', 'libraryResources')).filter(
      (r) => r.resource_title === 'Long lesson video',
    );
    expect(String(row.video_file)).toMatch(/\.mp4$/);
  });
});

/** Limits uploads from the app's pages to `bytesPerSecond`, until the returned function lifts it. */
async function throttleUploads(bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const conditions = (upload: number) => ({
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: upload,
  });
  const sessions: string[] = [];
  let id = 0;
  const each = async (method: string, params: object = {}) => {
    for (const sessionId of sessions)
      await cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id: ++id, method, params }),
      });
  };
  for (const target of targetInfos.filter((t) => t.type === 'page'))
    sessions.push((await cdp.send('Target.attachToTarget', { targetId: target.targetId })).sessionId);
  await each('Network.enable');
  await each('Network.emulateNetworkConditions', conditions(bytesPerSecond));
  return async () => {
    await each('Network.emulateNetworkConditions', conditions(-1));
    await cdp.detach();
  };
}

describe('a large file over a slow line', () => {
  // The window sends, as where the browser has no Background Sync: the service worker, which
  // the browser may wake first, sends in paced chunks and is not taken offline with the page.
  let kept: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    kept = { context, page };
    context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    await context.addInitScript(() => {
      delete (ServiceWorkerRegistration.prototype as unknown as Record<string, unknown>).sync;
    });
    page = await context.newPage();
    await signInWithForm(page, server.url);
  });
  afterAll(async () => {
    await context.close();
    ({ context, page } = kept);
  });

  const status = () => page.getByTestId('sync-status');
  const percentIn = async (text: string | null, pattern: RegExp) =>
    Number(pattern.exec(text ?? '')?.[1] ?? -1);

  it('shows progress as the bytes go; sent in the background, then cut off, the form, the list, the top bar and the outbox say the same', async () => {
    // About 1 MB a second: the first 5 MB chunk takes some five seconds.
    const lift = await throttleUploads(1_000_000);
    await saveVideoResource('Slow lesson video', 'slow.mp4');

    // Before the first chunk is through, the form already shows some of its bytes sent.
    const line = /Video File “slow\.mp4”: (\d+)% \(/;
    await expect
      .poll(async () => percentIn(await page.locator('.sending-files').textContent(), line), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    expect(await percentIn(await page.locator('.sending-files').textContent(), line)).toBeLessThan(55);
    await expect.poll(() => status().textContent()).toMatch(/^(Online|Live) · sending a file, \d+%/);

    // Left to send in the background: the notice, the row and the top bar follow it.
    await page.getByRole('button', { name: 'Continue, send in the background' }).click();
    await page.waitForURL(/\/library/);
    await notice('Saved; the file is being sent, ').waitFor();
    expect(await notice('Saved; the file is being sent, ').textContent()).toMatch(
      /Saved; the file is being sent, \d+%\..*Its progress shows in the top bar and on the outbox screen\./,
    );
    const row = page.getByRole('row').filter({ hasText: 'Slow lesson video' });
    await expect.poll(() => row.getByRole('link', { name: /^Sending file \d+%$/ }).count()).toBe(1);

    // Cut off once the first chunk is on the server (bytes past it are the second chunk's).
    await expect
      .poll(async () => percentIn(await status().textContent(), /sending a file, (\d+)%/), {
        timeout: 30_000,
      })
      .toBeGreaterThan(56);
    await context.setOffline(true);
    await expect.poll(() => status().textContent()).toBe('Offline · 1 waiting');
    await expect.poll(() => row.textContent()).toContain('Pending');
    expect(await row.getByRole('link', { name: /Sending file/ }).count()).toBe(0);
    await notice('Saved on this device; the file is sent when the connection returns.').waitFor();
    // It takes the place of the notice that said the file was being sent: one save, one notice.
    expect(await notice('Saved; the file is being sent, ').count()).toBe(0);
    await status().click();
    await page.waitForURL(/\/outbox/);
    const change = page.getByRole('row').filter({ hasText: 'Slow lesson video' });
    await expect
      .poll(() => change.textContent())
      .toContain('Video File: 5.0 MB of 9.0 MB already on the server; the rest is sent at the next try.');
    expect(await change.locator('td[data-label="State"]').textContent()).toMatch(/^Waiting/);

    // Back online, it goes on from there and arrives once.
    await context.setOffline(false);
    await lift();
    await expect.poll(() => status().textContent(), { timeout: 60_000 }).toMatch(CONNECTED);
    const sent = (await serverRows('Resources/Library/fetchlibrary.php', 'libraryResources')).filter(
      (r) => r.resource_title === 'Slow lesson video',
    );
    expect(sent).toHaveLength(1);

    // Its edit form shows the video as a link to open, not as a picture that cannot load.
    // Opened anew until the pull has brought the server's name (a form takes its values once).
    const current = page.locator('.file-current').filter({ hasText: '.mp4' });
    const shownFile = async () => {
      await page.goto(`${server.url}/library`);
      await page
        .getByRole('row')
        .filter({ hasText: 'Slow lesson video' })
        .getByRole('link', { name: 'Edit' })
        .click();
      await page.getByRole('heading', { name: 'Update Resource' }).waitFor();
      return current
        .getByRole('link')
        .textContent({ timeout: 3000 })
        .catch(() => null);
    };
    // By the name it had on the device, which its download takes too.
    expect(sent[0].video_file_name).toBe('slow.mp4');
    await expect.poll(shownFile, { timeout: 45_000 }).toBe('slow.mp4');
    expect(await page.getByRole('img', { name: 'Current Video File' }).count()).toBe(0);
    const href = await current.getByRole('link').getAttribute('href');
    expect(href).toContain(`/uploads/videos/${String(sent[0].video_file)}?name=slow.mp4`);
    const download = await page.request.head(new URL(String(href), server.url).href);
    expect(download.headers()['content-disposition']).toBe('attachment; filename="slow.mp4"');
  });
});

describe('Add Question from the Chapters list', () => {
  it('opens with the chapter’s class, subject, series, book and chapter chosen', async () => {
    await page.goto(`${server.url}/chapters?search=Tens`);
    await page
      .getByRole('row')
      .filter({ hasText: 'Tens and Ones' })
      .getByRole('link', { name: 'Add Question' })
      .click();
    await page.getByRole('heading', { name: 'Add Question' }).waitFor();
    const chosen = async (label: string) => {
      const select = page.getByRole('combobox', { name: label, exact: true });
      return select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
    };
    await expect.poll(() => chosen('Chapter')).toBe('Tens and Ones');
    expect(await Promise.all(['Class', 'Subject', 'Series', 'Book'].map(chosen))).toEqual([
      'Class 1',
      'Mathematics',
      'Number Fun',
      'Number Fun 1',
    ]);
  });

  it('a match question: its form says one item a line, and the list shows each item on its own line', async () => {
    await choose('Question Type', 'Match the Following');
    const left = page.getByLabel('Left Side Match');
    expect(await left.getAttribute('aria-describedby')).toBe('field-left_match-hint');
    expect(await page.locator('#field-left_match-hint').textContent()).toBe('One item per line.');
    await page.getByLabel('Enter Question').fill('Match the peaks');
    await left.fill('Mount Everest\nK2\nMount Fuji');
    await page.getByLabel('Right Side Match').fill('Japan\nNepal\nPakistan');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/question-bank(\?|$)/);
    const row = page.getByRole('row').filter({ hasText: 'Match the peaks' });
    await expect.poll(() => row.count()).toBe(1);
    // Rendered text, as the administrator reads it: the line breaks are the point.
    const lines = await row.locator('.cell-small li').allInnerTexts();
    expect(lines).toEqual([
      'Left Side Match: Mount Everest\nK2\nMount Fuji',
      'Right Side Match: Japan\nNepal\nPakistan',
    ]);
  });
});

describe('question edit against a server without it', () => {
  let legacy: TestServer;
  beforeAll(async () => {
    legacy = await startTestServer({ staticDir: DIST, seedDemo: true, legacy: true });
  }, 60_000);
  afterAll(() => legacy?.close());

  it('says that this server cannot edit questions and offers no form', async () => {
    const other = await browser.newContext();
    const tab = await other.newPage();
    await signInWithForm(tab, legacy.url);
    await tab.goto(`${legacy.url}/question-bank`);
    const row = tab.getByRole('row').filter({ hasText: 'What do we say in the morning?' });
    await row.getByRole('link', { name: 'Edit' }).click();
    await expect
      .poll(() => tab.getByRole('alert').filter({ hasText: 'cannot edit questions' }).count(), {
        timeout: 20_000,
      })
      .toBe(1);
    expect(await tab.getByRole('button', { name: 'Update Question' }).count()).toBe(0);
    await other.close();
  });
});
