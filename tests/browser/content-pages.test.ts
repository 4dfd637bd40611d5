/**
 * The content pages in Chromium, against the built app and the real server: the About
 * Us editor reached from the CMS menu with the spec's whole toolbar and 'Update Content'; an
 * image inserted offline shows from the device (also after a reload) and, once the connection
 * is back, the server's content refers to the image's server URL; /addterms saves About Us
 * through the About Us endpoints, as the spec says; /updateterms edits Terms; two versions of
 * About Us in conflict show side by side as they read; against the legacy server /updateterms
 * says there is no Terms endpoint and images cannot be inserted, and nothing is queued.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aboutUsEntity, termsEntity } from '../../src/contract/entities';
import { type EntityDescription, splitPath } from '../../src/contract/entity';
import { PULL_ALL_PATH } from '../../src/contract/wire';
import { DIST, launchBrowser, signInWithForm, storedCount } from '../helpers/browser';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

/** A real 1x1 PNG, so the inserted image loads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  browser = await launchBrowser();
  admin = api(server.apiRoot, await signIn(server.apiRoot));
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stored = async (entity: EntityDescription = aboutUsEntity): Promise<string> =>
  (await admin.get(splitPath(entity.api.get!).path)).body.content;

/** What a tablet's screen says and its sync state, for a failure's message. */
const whatShows = async (tab: Page): Promise<string> =>
  `${await tab.locator('main').textContent()} | ${await tab.getByTestId('sync-status').textContent()}`;

const editor = (name = 'About Us Content') => page.getByRole('textbox', { name });
const toolbar = (name = 'About Us Content') => page.getByRole('toolbar', { name: `${name} formatting` });

/** Replaces the editor's text with `text` typed anew. */
async function retype(text: string, name?: string): Promise<void> {
  await editor(name).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

/** Turns Bold on and waits until the editor has it and the focus back, so typing goes in bold. */
async function boldOn(): Promise<void> {
  const bold = toolbar().getByRole('button', { name: 'Bold', exact: true });
  await bold.click();
  await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => editor().evaluate((el) => el === document.activeElement)).toBe(true);
}

/**
 * A plain paragraph, then a bold one. The bold word starts a paragraph of its own: after a
 * typed space, Chromium and ProseMirror may take that space into the mark turned on next.
 */
async function plainThenBold(plain: string, bold: string): Promise<void> {
  await retype(plain);
  await page.keyboard.press('Enter');
  await boldOn();
  await page.keyboard.type(bold);
}

async function insertImage(name: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await toolbar().getByRole('button', { name: 'Image', exact: true }).click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: PNG });
}

/** Whether an <img> has loaded its picture. */
const loaded = (img: ReturnType<Page['locator']>) =>
  img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0);

describe('About Us and Terms through the screens', () => {
  it('/updateaboutus, from the CMS menu: the spec’s whole toolbar, and Update Content saves', async () => {
    await page.getByRole('button', { name: 'CMS' }).click();
    await page.getByRole('link', { name: 'About Us' }).click();
    await page.waitForURL(/\/updateaboutus$/);
    await page.getByRole('heading', { name: 'Update About Us Content' }).waitFor();
    await expect.poll(() => editor().textContent()).toContain('We publish digital textbooks');

    for (const select of ['Style', 'Font', 'Size'])
      expect(await toolbar().getByRole('combobox', { name: select }).count(), select).toBe(1);
    for (const colour of ['Text colour', 'Background colour'])
      expect(await toolbar().getByLabel(colour).count(), colour).toBe(1);
    for (const name of [
      'Bold',
      'Italic',
      'Underline',
      'Bullet list',
      'Numbered list',
      'Align left',
      'Align centre',
      'Align right',
      'Justify',
      'Link',
      'Image',
      'Clear formatting',
    ])
      expect(await toolbar().getByRole('button', { name, exact: true }).count(), name).toBe(1);

    await plainThenBold('Who we are', 'Bold promise');
    await page.getByRole('button', { name: 'Update Content' }).click();
    await expect
      .poll(stored, { timeout: 20_000 })
      .toBe('<p>Who we are</p><p><strong>Bold promise</strong></p>');
    await expect.poll(() => page.getByText('Content updated successfully').count()).toBe(1);
  });

  it('an image inserted offline shows from the device, and reaches the server before the content naming its URL', async () => {
    await page.goto(`${server.url}/updateaboutus`);
    await expect.poll(() => editor().textContent()).toContain('Bold promise');
    await context.setOffline(true);
    await retype('Our building');
    await page.keyboard.press('Enter');
    await insertImage('our-building.png');
    const image = editor().locator('img');
    await expect.poll(() => image.count()).toBe(1);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    expect(await image.getAttribute('data-pending-upload')).toMatch(/^tmp-/);
    await expect.poll(() => loaded(image)).toBe(true);
    await page.getByRole('button', { name: 'Update Content' }).click();
    await expect.poll(() => page.getByText(/saved on this device/).count()).toBeGreaterThan(0);

    // A reload offline: the blob: URL the content kept is dead; the picture comes from the queue.
    await page.reload();
    await expect.poll(() => editor().locator('img').count(), { timeout: 20_000 }).toBe(1);
    expect(await editor().locator('img').getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => loaded(editor().locator('img'))).toBe(true);

    // The outbox says the content waits for the image.
    await page.goto(`${server.url}/outbox`);
    const contentRow = page.getByRole('row').filter({ hasText: 'About Us Content' });
    await expect.poll(() => contentRow.textContent()).toContain('Waits for: Add Image “our-building.png”');
    expect(await stored()).not.toContain('Our building');

    await context.setOffline(false);
    await expect.poll(stored, { timeout: 30_000 }).toContain('Our building');
    const html = await stored();
    const src = /<img src="([^"]+)"/.exec(html)?.[1] ?? '';
    // By path, with no host: it shows on a tablet that reaches the server by another address.
    expect(src).toMatch(/^\/api\/uploads\/cms\/[^/"]+\.png$/);
    expect(html).not.toMatch(/blob:|data-pending-upload/);
    const file = await fetch(`${server.url}${src}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    // Opened again, the editor shows the server's copy.
    await page.goto(`${server.url}/updateaboutus`);
    await expect.poll(() => editor().locator('img').getAttribute('src'), { timeout: 20_000 }).toBe(src);
    await expect.poll(() => loaded(editor().locator('img'))).toBe(true);

    const otherTablet = await browser.newContext();
    try {
      const other = await otherTablet.newPage();
      const heard: string[] = [];
      other.on('console', (m) => m.type() !== 'log' && heard.push(`${m.type()}: ${m.text()}`));
      other.on('pageerror', (e) => heard.push(`pageerror: ${e.message}`));
      other.on('requestfailed', (r) => heard.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      const otherAddress = server.url.replace('127.0.0.1', 'localhost');
      await signInWithForm(other, otherAddress);
      await other.goto(`${otherAddress}/updateaboutus`);
      const shown = other.getByRole('textbox', { name: 'About Us Content' }).locator('img');
      // Counted, not read: a read waits for the image, and the poll then cannot say what showed.
      await expect
        .poll(
          async () =>
            (await shown.count()) > 0 ? 'the image' : `${await whatShows(other)} | ${heard.join('; ')}`,
          {
            timeout: 45_000,
          },
        )
        .toBe('the image');
      expect(await shown.getAttribute('src')).toBe(src);
      await expect.poll(() => loaded(shown)).toBe(true);
    } finally {
      await otherTablet.close();
    }
  });

  it('the editor opened before the first sync has brought About Us shows it when it arrives', async () => {
    const freshTablet = await browser.newContext();
    const held: Route[] = [];
    let hold = true;
    // About Us comes with the pull of every list.
    await freshTablet.route(`**/api/${PULL_ALL_PATH}*`, (route) =>
      hold ? void held.push(route) : route.continue(),
    );
    try {
      const fresh = await freshTablet.newPage();
      await signInWithForm(fresh, server.url);
      await fresh.goto(`${server.url}/updateaboutus`);
      await fresh.getByText('not on this device yet').waitFor();
      hold = false;
      // Requests of the page before are dead; this page's own is answered now.
      for (const route of held) await route.continue().catch(() => undefined);
      const editorThere = fresh.getByRole('textbox', { name: 'About Us Content' });
      await expect.poll(() => editorThere.textContent(), { timeout: 30_000 }).toContain('Our building');
    } finally {
      await freshTablet.close();
    }
  });

  it('/addterms is the About Us editor on the About Us endpoints, with Save Content', async () => {
    await page.getByRole('button', { name: 'CMS' }).click();
    await page.getByRole('link', { name: 'Terms and Conditions' }).click();
    await page.waitForURL(/\/addterms$/);
    await page.getByRole('heading', { name: 'Add About Us Content' }).waitFor();
    expect(await page.getByText('saves the About Us content through the About Us endpoints').count()).toBe(1);
    await retype('Added from the terms route');
    await page.getByRole('button', { name: 'Save Content' }).click();
    await page.waitForURL(/\/updateaboutus$/);
    await expect.poll(stored, { timeout: 20_000 }).toBe('<p>Added from the terms route</p>');
    await expect.poll(() => page.getByText('Content added successfully').count()).toBe(1);
    expect(await stored(termsEntity)).toContain('Accounts are for the school');
  });

  it('/updateterms edits the Terms, a document of their own', async () => {
    await page.goto(`${server.url}/updateterms`);
    await page.getByRole('heading', { name: 'Update Terms and Conditions' }).waitFor();
    const terms = 'Terms and Conditions';
    await expect.poll(() => editor(terms).textContent()).toContain('Accounts are for the school');
    await retype('Use the books for teaching only.', terms);
    await page.getByRole('button', { name: 'Update Content' }).click();
    await expect
      .poll(() => stored(termsEntity), { timeout: 20_000 })
      .toBe('<p>Use the books for teaching only.</p>');
    expect(await stored()).toBe('<p>Added from the terms route</p>');
  });

  it('two versions in conflict show side by side as they read, and the choice is sent', async () => {
    await page.goto(`${server.url}/updateaboutus`);
    await expect.poll(() => editor().textContent()).toContain('Added from the terms route');
    await context.setOffline(true);
    await plainThenBold('Mine', 'strongly');
    await page.getByRole('button', { name: 'Update Content' }).click();
    await admin.post(aboutUsEntity.api.update!, { content: '<p>Theirs, <em>gently</em></p>' });
    await context.setOffline(false);
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 20_000 })
      .toMatch(/1 failed/);

    await page.goto(`${server.url}/outbox`);
    const panel = page.getByRole('group', { name: /Changed on the server/ });
    const mine = panel.getByRole('region', { name: "this device's version" });
    const theirs = panel.getByRole('region', { name: "the server's version" });
    await expect.poll(() => mine.locator('strong').textContent()).toBe('strongly');
    expect(await mine.locator('p').first().textContent()).toBe('Mine');
    expect(await theirs.locator('em').textContent()).toBe('gently');
    // Rendered, not shown as markup.
    expect(await panel.textContent()).not.toContain('<p>');
    await panel.getByLabel("Keep the server's version").check();
    await panel.getByRole('button', { name: 'Apply choices' }).click();
    await expect
      .poll(() => page.getByRole('group', { name: /Changed on the server/ }).count(), { timeout: 20_000 })
      .toBe(0);
    expect(await stored()).toBe('<p>Theirs, <em>gently</em></p>');
  });
});

describe('against the legacy server', () => {
  let legacy: TestServer;
  let legacyPage: Page;
  let legacyContext: BrowserContext;

  beforeAll(async () => {
    legacy = await startTestServer({ staticDir: DIST, seedDemo: true, legacy: true });
    legacyContext = await browser.newContext();
    legacyPage = await legacyContext.newPage();
    await signInWithForm(legacyPage, legacy.url);
  });
  afterAll(async () => {
    await legacyContext?.close();
    await legacy?.close();
  });

  const queued = () => storedCount(legacyPage, 'outbox');

  it('/updateterms says this server has no Terms endpoint and offers no form', async () => {
    await legacyPage.goto(`${legacy.url}/updateterms`);
    await legacyPage.getByRole('heading', { name: 'Update Terms and Conditions' }).waitFor();
    await expect
      .poll(() => legacyPage.getByText('This server has no terms and conditions endpoint').count(), {
        timeout: 20_000,
      })
      .toBe(1);
    expect(await legacyPage.getByRole('textbox').count()).toBe(0);
    expect(await legacyPage.getByRole('button', { name: 'Update Content' }).count()).toBe(0);
    expect(await queued()).toBe(0);
  });

  it('About Us is edited, but an image cannot be inserted: the field says why', async () => {
    await legacyPage.goto(`${legacy.url}/updateaboutus`);
    const area = legacyPage.getByRole('textbox', { name: 'About Us Content' });
    await expect.poll(() => area.textContent()).toContain('We publish');
    await legacyPage
      .getByRole('toolbar', { name: 'About Us Content formatting' })
      .getByRole('button', { name: 'Image', exact: true })
      .click();
    await expect.poll(() => legacyPage.getByText('This server cannot store images').count()).toBe(1);
    expect(await area.locator('img').count()).toBe(0);
    expect(await queued()).toBe(0);

    await area.click();
    await legacyPage.keyboard.press('ControlOrMeta+a');
    await legacyPage.keyboard.type('Words only');
    await legacyPage.getByRole('button', { name: 'Update Content' }).click();
    const client = api(legacy.apiRoot, await signIn(legacy.apiRoot));
    await expect
      .poll(async () => (await client.get(aboutUsEntity.api.get!)).body.content, { timeout: 20_000 })
      .toBe('<p>Words only</p>');
  });
});
