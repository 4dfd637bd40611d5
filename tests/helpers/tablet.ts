/**
 * The tablet checks, shared by the browser tests: every screen of the app derived
 * from the entity catalogue (so a new entity's screens are checked without editing a test),
 * the sizes that matter, and measurements taken in the page: touch targets, tables that clip,
 * pages that scroll sideways.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { catalogueScreens } from '../../src/contract/catalogue/entity-catalogue';
import { listFieldOf } from '../../src/contract/endpoints';
import { entities } from '../../src/contract/entities';
import { wireRequest } from '../../src/contract/wire-request';
import { api, signIn, type TestServer } from './server';

export const PORTRAIT = { width: 768, height: 1024 };
export const LANDSCAPE = { width: 1024, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** A touch tablet: coarse pointer, touch events. */
export function tabletContext(browser: Browser, viewport = PORTRAIT): Promise<BrowserContext> {
  return browser.newContext({ viewport, hasTouch: true });
}

export interface Screen {
  /** What it is, for messages: 'class list', 'book add', 'unit edit'. */
  name: string;
  path: string;
  kind: 'list' | 'add' | 'edit' | 'relation';
  /** The heading the screen shows once drawn. */
  ready: string;
}

/**
 * Every list, add, edit and assignment screen the catalogue has (a picker counts as a list), an
 * edit or assignment screen opening the first record the server lists, and a screen inside one
 * parent (the pages of a book) opening the first parent that has such records (a seeded server
 * has one of each).
 */
export async function entityScreens(server: TestServer): Promise<Screen[]> {
  const client = api(server.apiRoot, await signIn(server.apiRoot));
  const screens: Screen[] = [];
  const firstRow = async (name: string) => {
    const entity = entities.find((e) => e.name === name)!;
    const reply = await client.send(wireRequest(entity, { op: 'list' }));
    const first = reply.body[listFieldOf(entity)]?.[0];
    if (!first) throw new Error(`No ${entity.name} on the server`);
    return first as Record<string, unknown>;
  };
  for (const s of catalogueScreens(entities)) {
    const entity = entities.find((e) => e.name === s.entity)!;
    let path = s.path;
    if ((s.screen === 'edit' || s.screen === 'relation') && path.includes('$id')) {
      const first = await firstRow(entity.name);
      path = path.replace('$id', encodeURIComponent(btoa(String(first[entity.key]))));
    } else if (s.parent && path.includes('$id')) {
      // The parent of the entity's first record, so the list shows a record.
      const field = entity.routes.within!.field;
      path = path.replace('$id', encodeURIComponent(btoa(String((await firstRow(entity.name))[field]))));
    }
    // An import screen is a form (a file input and buttons).
    const kind = s.screen === 'picker' ? 'list' : s.screen === 'import' ? 'add' : s.screen;
    screens.push({ name: `${entity.name} ${s.screen}`, path, kind, ready: 'h1' });
  }
  return screens;
}

/**
 * Opens a screen and waits until its heading and its data are drawn: loads its address, or with
 * `navigate`, inside the app, goes there as a link does (the router follows
 * history.pushState). The checks that walk every screen navigate: a full load per screen cost
 * about a second of start-up and checked nothing more. A navigation the app does not follow
 * (a form holding its ground) falls back to loading the address.
 */
export async function openScreen(
  page: Page,
  url: string,
  path: string,
  how: 'load' | 'navigate' = 'load',
): Promise<void> {
  if (how === 'load' || !(await navigatedInApp(page, url, path))) await page.goto(`${url}${path}`);
  await page.locator('main h1').first().waitFor();
  // Lists: rows or the empty text; forms: their controls.
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    if (!main || main.textContent?.includes('Loading')) return false;
    const body = main.querySelector('tbody');
    return body ? body.getAttribute('aria-busy') !== 'true' : true;
  });
}

/**
 * Navigates as the app's links do, when the page already shows the app at `url` and another
 * address; true once the new screen has taken the focus to its heading (focus-heading.ts).
 */
async function navigatedInApp(page: Page, url: string, path: string): Promise<boolean> {
  const started = await page.evaluate(
    ({ origin, path }) => {
      const inApp = location.origin === origin && document.querySelector('header.topbar') !== null;
      if (!inApp || location.pathname + location.search === path) return false;
      (document.activeElement as HTMLElement | null)?.blur();
      const index = Number(history.state?.__TSR_index ?? 0) + 1;
      const key = Math.random().toString(36).slice(2, 10);
      history.pushState({ __TSR_index: index, key, __TSR_key: key }, '', path);
      return true;
    },
    { origin: new URL(url).origin, path },
  );
  if (!started) return false;
  try {
    // The heading, or the main region while the screen still loads its record.
    await page.waitForFunction(() => document.activeElement?.matches('#main, #main h1') === true, null, {
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}

export interface Target {
  what: string;
  width: number;
  height: number;
}

/**
 * Every visible control a finger can use (buttons, links, inputs, selects, text areas, sort
 * headers, summaries, focusable regions) with its size. A checkbox or radio with words beside it
 * counts by its label (the words are part of the target); one with none (a row's selection box,
 * named only for screen readers) counts by its own box, which is all a finger sees: measured by
 * an invisible label around it, a 22 px box passed as 44 px.
 * Excepted: the skip link while it is hidden (measured apart, when focused) and text links
 * inside running prose (a link in a paragraph with other text, WCAG 2.5.8's inline exception).
 */
export function measureTargets(page: Page): Promise<Target[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex="0"]';
    const out: { what: string; width: number; height: number }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.matches('.skip-link:not(:focus)')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const prose =
        el.matches('p a') && (el.closest('p')?.textContent ?? '').trim() !== el.textContent?.trim();
      if (prose) continue;
      // A box's target is its label when the label shows words, as is a file input hidden
      // inside a button-like label.
      const label = el.closest('label');
      const shownWords = (node: Node): boolean =>
        node.nodeType === Node.TEXT_NODE
          ? (node.textContent ?? '').trim() !== ''
          : !(node as Element).matches('.visually-hidden') && [...node.childNodes].some(shownWords);
      const byLabel =
        label !== null &&
        (el.matches('label > input[type="file"].visually-hidden') ||
          (el.matches('input[type="checkbox"], input[type="radio"]') && shownWords(label)));
      const box = byLabel ? label : el;
      const r = box.getBoundingClientRect();
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('name') ?? '').trim();
      out.push({
        what: `${el.tagName.toLowerCase()} "${name.slice(0, 40)}"`,
        width: r.width,
        height: r.height,
      });
    }
    return out;
  });
}

/** Space between each destructive button and the nearest other control, in px. */
export function dangerGaps(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select')].filter(
      (el) => el.checkVisibility(),
    );
    return [...document.querySelectorAll<HTMLElement>('.button-danger')]
      .filter((el) => el.checkVisibility())
      .map((danger) => {
        const d = danger.getBoundingClientRect();
        let nearest = Number.POSITIVE_INFINITY;
        for (const other of controls) {
          if (other === danger || other.contains(danger) || danger.contains(other)) continue;
          const o = other.getBoundingClientRect();
          const dx = Math.max(0, o.left - d.right, d.left - o.right);
          const dy = Math.max(0, o.top - d.bottom, d.top - o.bottom);
          nearest = Math.min(nearest, Math.hypot(dx, dy));
        }
        return nearest;
      });
  });
}

/**
 * Where a table or the page clips: the page or the main region scrolling sideways, a table
 * frame outside the viewport, a table that scrolls without showing it. When a table scrolls,
 * it is scrolled to its far end and then the name column must still be in view and every
 * row's last cell (its actions) inside the frame.
 */
export function clipping(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push('the page scrolls sideways');
    const main = document.getElementById('main');
    if (main && main.scrollWidth > main.clientWidth + 1) problems.push('the screen scrolls sideways');
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
      const box = wrap.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) problems.push('a table frame leaves the viewport');
      if (wrap.scrollWidth <= wrap.clientWidth + 1) {
        // A header row kept only for screen readers (cards on a phone) is not looked at.
        const cells = [...wrap.querySelectorAll('td, th')].filter(
          (c) => getComputedStyle(c.closest('thead') ?? c).clipPath === 'none',
        );
        for (const cell of cells) {
          const r = cell.getBoundingClientRect();
          if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1))
            problems.push(`a cell is cut off: ${cell.textContent?.slice(0, 30)}`);
        }
        continue;
      }
      const outer = wrap.closest('.table-frame');
      if (!outer?.hasAttribute('data-more-right')) problems.push('a table scrolls without showing it');
      if (!outer?.querySelector('.table-hint')) problems.push('a table scrolls without saying so');
      if (!wrap.hasAttribute('tabindex')) problems.push('a scrolling table cannot be scrolled by keyboard');
      wrap.scrollLeft = wrap.scrollWidth;
      await frame();
      if (!outer?.hasAttribute('data-more-left'))
        problems.push('a scrolled table does not show what it hides');
      for (const row of wrap.querySelectorAll('tbody tr')) {
        const name = row.querySelector('.cell-primary')?.getBoundingClientRect();
        const last = row.lastElementChild?.getBoundingClientRect();
        if (name && name.left < box.left - 1) problems.push('the name column scrolls out of view');
        if (last && last.right > box.right + 1) problems.push('the actions cannot be reached');
      }
      wrap.scrollLeft = 0;
    }
    return problems;
  });
}

/**
 * What a tablet user of a list cannot reach without scrolling sideways: the page or
 * the screen scrolling sideways, no row to look at, or a control or value of the first row's
 * name cell, Status cell or actions outside the viewport or the table's frame while the frame
 * is at its start.
 */
export function unreachableInList(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push('the page scrolls sideways');
    const main = document.getElementById('main')!;
    if (main.scrollWidth > main.clientWidth + 1) problems.push('the screen scrolls sideways');
    const wrap = main.querySelector<HTMLElement>('.table-wrap');
    const row = wrap?.querySelector('tbody tr:has(.cell-primary)');
    if (!wrap || !row) return [...problems, 'no row to look at'];
    wrap.scrollLeft = 0;
    const frame = wrap.getBoundingClientRect();
    const left = Math.max(0, frame.left) - 1;
    const right = Math.min(width, frame.right) + 1;
    const cells = row.querySelectorAll<HTMLElement>('.cell-primary, .cell-action, td[data-label="Status"]');
    for (const cell of cells) {
      if (!cell.checkVisibility()) problems.push(`${cell.dataset.label} is hidden`);
      const controls = cell.querySelectorAll<HTMLElement>('a, button, input, select, summary');
      for (const part of [cell, ...controls].filter((el) => el.checkVisibility())) {
        const r = part.getBoundingClientRect();
        const what = `${cell.dataset.label}: ${(part.textContent ?? '').trim().slice(0, 20)}`;
        if (r.left < left || r.right > right) problems.push(`${what} is out of view`);
      }
    }
    if (!row.querySelector('.cell-action')) problems.push('no actions');
    return problems;
  });
}

/** A value of a row as read on the screen: its text and how many pictures it shows. */
export interface ShownValue {
  label: string;
  text: string;
  images: number;
}

/** The first row's cells hidden at this width (a lower-priority column), each with its value. */
export function hiddenValues(page: Page): Promise<ShownValue[]> {
  return page.evaluate(() => {
    const row = document.querySelector('#main .table-wrap tbody tr:has(.cell-primary)');
    return [...(row?.querySelectorAll<HTMLElement>('td') ?? [])]
      .filter((td) => getComputedStyle(td).display === 'none')
      .map((td) => ({
        label: td.dataset.label ?? '',
        text: (td.textContent ?? '').trim(),
        images: td.querySelectorAll('img').length,
      }));
  });
}

/** The values the first row's More disclosure shows once opened, by keyboard. */
export async function disclosedValues(page: Page): Promise<ShownValue[]> {
  const row = page.locator('#main .table-wrap tbody tr:has(.cell-primary)').first();
  const more = row.locator('summary', { hasText: 'More' });
  if (!(await more.isVisible())) return [];
  await more.focus();
  await page.keyboard.press('Enter');
  await row.locator('.row-more dl').waitFor();
  return row.locator('.row-more dl > div').evaluateAll((items) =>
    items
      .filter((item) => item.checkVisibility())
      .map((item) => ({
        label: (item.querySelector('dt')?.textContent ?? '').trim(),
        text: (item.querySelector('dd')?.textContent ?? '').trim(),
        images: item.querySelectorAll('dd img').length,
      })),
  );
}

/**
 * What the top bar cuts or pushes out: any shown element in it whose content overflows its box
 * (a word of the state cut, its lines clamped) or that leaves the viewport or the bar. The skip
 * link while hidden and text kept for screen readers are clipped on purpose and not looked at.
 */
export function topBarClipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('header.topbar')!;
    const box = bar.getBoundingClientRect();
    const problems: string[] = [];
    for (const el of bar.querySelectorAll<HTMLElement>('*')) {
      if (el.closest('.visually-hidden, .skip-link:not(:focus), [popover]:not(:popover-open)')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      const what = `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      // Inline boxes report no client size: only boxes that can clip are measured.
      if (
        el.clientWidth > 0 &&
        (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      )
        problems.push(`${what} is cut`);
      if (r.left < -0.5 || r.right > innerWidth + 0.5) problems.push(`${what} leaves the viewport`);
      if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) problems.push(`${what} leaves the bar`);
    }
    return problems;
  });
}
