/**
 * Debian's Chromium driven by playwright-core (no browser download is possible here), with
 * the flags this machine needs: no sandbox as root, no GPU, and no background connections
 * that the closed network would refuse.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import chromiumFlags from '../../scripts/chromium-flags.json';
import { ADMIN, startTestServer, type TestServer, type TestServerOptions } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const DIST = resolve(import.meta.dirname, '../../dist');

/** The top bar's words for a connection that works: Online, or Live while the live stream works. */
export const CONNECTED = /^(Online|Live)$/;

/** The flags, shared with the benchmark (bench/drain.mjs, plain Node). */
export const CHROMIUM_ARGS: string[] = chromiumFlags;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(`${DIST}/index.html`)) throw new Error('No build in dist/: run `npm run build` first');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A context with an on-disk profile, as a real user has: Chromium treats the in-memory
 * contexts of launchBrowser() as incognito (not installable, faster IndexedDB).
 */
export async function launchPersistent(): Promise<{ context: BrowserContext; profile: string }> {
  if (!existsSync(`${DIST}/index.html`)) throw new Error('No build in dist/: run `npm run build` first');
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return { context, profile };
}

/**
 * Signs in through the real login form and waits until the service worker controls the
 * page, so the app keeps working when the test takes the network away.
 */
export async function signInWithForm(
  page: Page,
  appUrl: string,
  password: string = ADMIN.password,
): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  if (password !== ADMIN.password) return;
  await page.waitForURL(/\/homepage$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // clientsClaim() in src/sw.ts takes over pages open when the worker activates; a page whose
  // navigation began just before that is missed, and is controlled from its next load on.
  const controlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (!(await controlled())) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Signs in through the form in a context without service workers (nothing to wait for). */
export async function signInWithoutServiceWorker(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/homepage$/);
}

/**
 * The usual prologue of a browser test file: the built app served by a fresh server, and one
 * Chromium, both started before the file's tests and stopped after. Read `server` and
 * `browser` inside the tests (and in a file's own beforeAll, which runs after this one).
 */
/**
 * A tab signed in through the form, for all the tests of a file, handed to `use` once open;
 * its context (cookies, storage, offline switch) is closed after them.
 */
export function signedInTab(
  suite: { server: TestServer; browser: Browser },
  use: (tab: { context: BrowserContext; page: Page }) => void,
): void {
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    context = await suite.browser.newContext();
    const page = await context.newPage();
    await signInWithForm(page, suite.server.url);
    use({ context, page });
  });
  afterAll(() => context?.close());
}

export function browserSuite(options: Omit<TestServerOptions, 'staticDir'> = {}) {
  const suite = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    suite.server = await startTestServer({ ...options, staticDir: DIST });
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/**
 * The cells that name a list's rows (the primary column), found by the name they show. The
 * row's selection box ("Select <name>") sits in a cell of its own that a plain
 * getByRole('cell', { name }) would find as well.
 */
export const nameCells = (page: Page, name: string) =>
  page.locator('tbody td.cell-primary').filter({ hasText: name });

/** The names a list shows, in order: the primary cells' own text, without the Pending mark or the More disclosure. */
export const shownNames = (page: Page): Promise<string[]> =>
  page.locator('tbody td.cell-primary').evaluateAll((cells) =>
    cells.map((cell) =>
      [...cell.childNodes]
        .filter((n) => !(n instanceof Element && n.matches('.pending, details.row-more')))
        .map((n) => n.textContent ?? '')
        .join(''),
    ),
  );

/**
 * What the app keeps on the device, read straight from its IndexedDB in the page (past the app's
 * own code): how many records a store holds (`key` null), or the value kept under one key.
 */
function readLocalStore(page: Page, store: string, key: string | null | { all: true }): Promise<unknown> {
  return page.evaluate(
    ([name, k]) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('textbook-admin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const records = open.result.transaction(name).objectStore(name);
          const request: IDBRequest =
            k === null ? records.count() : typeof k === 'object' ? records.getAll() : records.get(k);
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            resolve(request.result);
            open.result.close();
          };
        };
      }),
    [store, key] as const,
  );
}

export const storedCount = (page: Page, store: string) =>
  readLocalStore(page, store, null) as Promise<number>;
export const storedValue = (page: Page, store: string, key: string) => readLocalStore(page, store, key);
export const storedAll = (page: Page, store: string) =>
  readLocalStore(page, store, { all: true }) as Promise<Record<string, unknown>[]>;

/** A class added through the menu and the real Add Class form; back on the class list after. */
export async function addClassThroughMenu(page: Page, name: string): Promise<void> {
  await page.getByText('MASTERFILTERS').click();
  await page.getByRole('link', { name: 'Classes' }).click();
  await page.getByRole('link', { name: 'Add Class' }).click();
  await page.getByLabel('Class Name').fill(name);
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
}
