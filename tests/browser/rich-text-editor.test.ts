/**
 * The rich-text editor through the real Add Subject screen, in Chromium against the built app
 * and the real server: every toolbar control applies its format and the server stores it
 * (after its own sanitiser); inserted, pasted and dropped images are files shown from blob:
 * URLs until uploaded, never base64, and the stored content refers to their server URLs; the toolbar is one tab stop with arrow keys between its controls and
 * has 44 px targets for fingers; the sign-in page loads neither the editor nor its sanitiser.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { subjectEntity } from '../../src/contract/entities';
import { browserSuite, signedInTab, signInWithForm } from '../helpers/browser';
import { api, signIn } from '../helpers/server';

const suite = browserSuite();
let page: Page;

/** A real 1x1 PNG, so the inserted images load. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const LINES = [
  'Heading one',
  'Heading two',
  'Heading three',
  'Bold words',
  'Italic words',
  'Underlined words',
  'Serif words',
  'Large words',
  'Red words',
  'Marked words',
  'Bullet item',
  'Numbered item',
  'Centred line',
  'Right line',
  'Justified line',
  'Left line',
  'Link words',
  'Cleared words',
];

signedInTab(suite, (tab) => {
  page = tab.page;
});

const editorArea = () => page.getByRole('textbox', { name: 'Subject Content' });
const toolbar = () => page.getByRole('toolbar', { name: 'Subject Content formatting' });
const tool = (name: string) => toolbar().getByRole('button', { name, exact: true });

/**
 * Selects one typed line with the keyboard, and waits until the editor has taken the
 * browser's selection in (it does so on the next selectionchange event; a control used
 * before that would act on the old selection).
 */
async function selectLine(text: string): Promise<void> {
  await editorArea().getByText(text, { exact: true }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.waitForFunction((wanted) => {
    // TipTap puts its editor on the editable element.
    const editor = (document.querySelector('.ProseMirror') as (Element & { editor?: TiptapLike }) | null)
      ?.editor;
    const selection = editor?.state.selection;
    return selection !== undefined && editor?.state.doc.textBetween(selection.from, selection.to) === wanted;
  }, text);
}

interface TiptapLike {
  state: { selection: { from: number; to: number }; doc: { textBetween(from: number, to: number): string } };
}

async function press(line: string, button: string): Promise<void> {
  await selectLine(line);
  await tool(button).click();
  await expect.poll(() => tool(button).getAttribute('aria-pressed')).toBe('true');
}

async function choose(line: string, label: string, option: string): Promise<void> {
  await selectLine(line);
  await toolbar().getByRole('combobox', { name: label }).selectOption({ label: option });
}

/** How the server's stored HTML shows a line: its enclosing tags and inline styles. */
async function storedLine(html: string, text: string) {
  return page.evaluate(
    ([source, wanted]) => {
      const doc = new DOMParser().parseFromString(source, 'text/html');
      const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        if (walker.currentNode.textContent !== wanted) continue;
        const tags: string[] = [];
        const style: Record<string, string> = {};
        let href: string | null = null;
        for (let el = walker.currentNode.parentElement; el && el !== doc.body; el = el.parentElement) {
          tags.push(el.tagName.toLowerCase());
          for (const p of ['fontFamily', 'fontSize', 'color', 'backgroundColor', 'textAlign'] as const)
            if (el.style[p] && !style[p]) style[p] = el.style[p];
          href ??= el.getAttribute('href');
        }
        return { tags, style, href };
      }
      return null;
    },
    [html, text] as const,
  );
}

describe('the rich-text editor on Add Subject', () => {
  it('the sign-in page loads neither the editor nor its sanitiser', async () => {
    const fresh = await suite.browser.newContext();
    const login = await fresh.newPage();
    const requested: string[] = [];
    login.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await login.goto(`${suite.server.url}/login`);
    await login.getByLabel('Username').waitFor();
    await login.waitForLoadState('networkidle');
    expect(requested.some((p) => p.endsWith('.js'))).toBe(true);
    expect(requested.filter((p) => /RichTextField|SafeHtml|purify|rich-text/i.test(p))).toEqual([]);
    await fresh.close();
  });

  it('applies every toolbar control, and the server stores each format', async () => {
    await page.goto(`${suite.server.url}/addsubjects`);
    await page.getByLabel('Subject Name').fill('Toolbar');
    await editorArea().click();
    await page.keyboard.type(LINES.join('\n'));

    await choose('Heading one', 'Style', 'Heading 1');
    await choose('Heading two', 'Style', 'Heading 2');
    await choose('Heading three', 'Style', 'Heading 3');
    await press('Bold words', 'Bold');
    await press('Italic words', 'Italic');
    await press('Underlined words', 'Underline');
    await choose('Serif words', 'Font', 'Serif');
    await choose('Large words', 'Size', '24px');
    await selectLine('Red words');
    await toolbar().getByLabel('Text colour').fill('#c0392b');
    await selectLine('Marked words');
    await toolbar().getByLabel('Background colour').fill('#fff3a0');
    await press('Bullet item', 'Bullet list');
    await press('Numbered item', 'Numbered list');
    await press('Centred line', 'Align centre');
    await press('Right line', 'Align right');
    await press('Justified line', 'Justify');
    await press('Left line', 'Align centre');
    await press('Left line', 'Align left');
    expect(await tool('Align centre').getAttribute('aria-pressed')).toBe('false');

    await selectLine('Link words');
    await tool('Link').click();
    const address = page.getByLabel('Link address');
    await address.fill('javascript:alert(1)');
    await address.press('Enter');
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'A link must start with' }).count())
      .toBe(1);
    await address.fill('https://example.org/page');
    await address.press('Enter');
    await expect.poll(() => address.count()).toBe(0);

    await choose('Cleared words', 'Style', 'Heading 2');
    await press('Cleared words', 'Bold');
    await press('Cleared words', 'Italic');
    await selectLine('Cleared words');
    await tool('Clear formatting').click();
    expect(await tool('Bold').getAttribute('aria-pressed')).toBe('false');

    await page.getByRole('button', { name: 'Add Subject' }).click();
    await page.waitForURL(/\/subjects(\?|$)/);

    const client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
    const stored = async () => {
      const rows: Record<string, string>[] = (await client.get(subjectEntity.api.list)).body.subjects;
      return rows.find((r) => r.subject_name === 'Toolbar')?.subject_content;
    };
    await expect.poll(stored, { timeout: 20_000 }).toEqual(expect.any(String));
    const html = (await stored()) as string;

    const line = (text: string) => storedLine(html, text);
    expect((await line('Heading one'))?.tags).toEqual(['h1']);
    expect((await line('Heading two'))?.tags).toEqual(['h2']);
    expect((await line('Heading three'))?.tags).toEqual(['h3']);
    expect((await line('Bold words'))?.tags).toEqual(['strong', 'p']);
    expect((await line('Italic words'))?.tags).toEqual(['em', 'p']);
    expect((await line('Underlined words'))?.tags).toEqual(['u', 'p']);
    expect((await line('Serif words'))?.style.fontFamily).toMatch(/^Georgia, "Times New Roman", serif$/);
    expect((await line('Large words'))?.style.fontSize).toBe('24px');
    expect((await line('Red words'))?.style.color).toBe('rgb(192, 57, 43)');
    expect((await line('Marked words'))?.style.backgroundColor).toBe('rgb(255, 243, 160)');
    expect((await line('Bullet item'))?.tags).toEqual(['p', 'li', 'ul']);
    expect((await line('Numbered item'))?.tags).toEqual(['p', 'li', 'ol']);
    expect((await line('Centred line'))?.style.textAlign).toBe('center');
    expect((await line('Right line'))?.style.textAlign).toBe('right');
    expect((await line('Justified line'))?.style.textAlign).toBe('justify');
    expect((await line('Left line'))?.style.textAlign ?? 'left').toBe('left');
    expect(await line('Link words')).toMatchObject({ tags: ['a', 'p'], href: 'https://example.org/page' });
    expect(await line('Cleared words')).toEqual({ tags: ['p'], style: {}, href: null });
  });

  it('inserts chosen, pasted and dropped images as files shown from blob: URLs, stored by URL, never base64', async () => {
    await page.goto(`${suite.server.url}/addsubjects`);
    await page.getByLabel('Subject Name').fill('Pictures');
    await editorArea().click();
    await page.keyboard.type('Before the pictures');
    await page.keyboard.press('Enter');

    const chooser = page.waitForEvent('filechooser');
    await tool('Image').click();
    await (await chooser).setFiles({ name: 'river-delta.png', mimeType: 'image/png', buffer: PNG });
    const images = editorArea().locator('img');
    await expect.poll(() => images.count()).toBe(1);

    // Paste and drop carry files the way a browser's clipboard and drag-and-drop do.
    await editorArea().evaluate(
      (el, bytes) => {
        const file = (name: string) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });
        const pasted = new DataTransfer();
        pasted.items.add(file('pasted.png'));
        el.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }),
        );
        const dropped = new DataTransfer();
        dropped.items.add(file('dropped.png'));
        const box = el.querySelector('p')?.getBoundingClientRect() ?? el.getBoundingClientRect();
        el.dispatchEvent(
          new DragEvent('drop', {
            dataTransfer: dropped,
            clientX: box.left + 5,
            clientY: box.top + 5,
            bubbles: true,
            cancelable: true,
          }),
        );
      },
      [...PNG],
    );
    await expect.poll(() => images.count()).toBe(3);

    for (const img of await images.all()) {
      expect(await img.getAttribute('src')).toMatch(/^blob:/);
      // Marked with the temporary id of its queued upload (src/contract/rich-text/rich-text-images.ts).
      expect(await img.getAttribute('data-pending-upload')).toMatch(/^tmp-/);
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
    }
    const alts = await images.evaluateAll((els) => els.map((el) => el.getAttribute('alt')).sort());
    expect(alts).toEqual(['dropped', 'pasted', 'river delta']);
    expect(await editorArea().innerHTML()).not.toContain('data:');

    await page.getByRole('button', { name: 'Add Subject' }).click();
    await page.waitForURL(/\/subjects(\?|$)/);
    const client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
    const stored = async () => {
      const rows: Record<string, string>[] = (await client.get(subjectEntity.api.list)).body.subjects;
      return rows.find((r) => r.subject_name === 'Pictures')?.subject_content;
    };
    await expect.poll(stored, { timeout: 20_000 }).toEqual(expect.any(String));
    // Each image went as a file of its own first; the content refers to it by its path on the server.
    const html = (await stored()) as string;
    const srcs = [...html.matchAll(/<img src="([^"]+)" alt="([^"]+)"/g)];
    expect(srcs.map((m) => m[2]).sort()).toEqual(['dropped', 'pasted', 'river delta']);
    for (const [, src] of srcs) {
      expect(src).toMatch(/^\/api\/uploads\/cms\/[^/"]+\.png$/);
      expect((await fetch(`${suite.server.url}${src}`)).status).toBe(200);
    }
    expect(html).not.toMatch(/blob:|data:|data-pending-upload/);
    expect(html).toContain('Before the pictures');
  });

  it('the toolbar is one tab stop; arrow keys, Home and End move between its controls', async () => {
    await page.goto(`${suite.server.url}/addsubjects`);
    const style = toolbar().getByRole('combobox', { name: 'Style' });
    await style.waitFor();
    await page.getByLabel('Subject Name').focus();
    await page.keyboard.press('Tab');
    expect(await style.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowRight');
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id);
    expect(await focused()).toMatch(/font$/);
    expect(await style.inputValue()).toBe('p');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Clear formatting');
    await page.keyboard.press('Tab');
    expect(await editorArea().evaluate((el) => el === document.activeElement)).toBe(true);
    const tabStops = await toolbar()
      .locator('button, select, input')
      .evaluateAll((els) => els.filter((el) => (el as HTMLElement).tabIndex === 0).length);
    expect(tabStops).toBe(1);
  });

  it('gives every control a 44 x 44 px target on a touch screen', async () => {
    const touch = await suite.browser.newContext({
      hasTouch: true,
      isMobile: true,
      viewport: { width: 800, height: 1000 },
    });
    const tablet = await touch.newPage();
    await signInWithForm(tablet, suite.server.url);
    await tablet.goto(`${suite.server.url}/addsubjects`);
    const controls = tablet
      .getByRole('toolbar', { name: 'Subject Content formatting' })
      .locator('button, select, input');
    await expect.poll(() => controls.count()).toBeGreaterThan(15);
    const sizes = await controls.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { name: el.getAttribute('id') ?? el.textContent, width: r.width, height: r.height };
      }),
    );
    for (const s of sizes) {
      expect(s.width, String(s.name)).toBeGreaterThanOrEqual(44);
      expect(s.height, String(s.name)).toBeGreaterThanOrEqual(44);
    }
    await touch.close();
  });
});
