/**
 * Who sends a change made offline once the network is back (design brief §2, ARCHITECTURE
 * "Data flow"): the service worker's 'sync' event where the browser has Background Sync, even
 * with no page open; and where it has not, the window: at start, on 'online', and on focus.
 *
 * Each case has its own server and its own Chromium with an on-disk profile (as a real user
 * has), so registrations, IndexedDB and sessions never leak from one case to another.
 */
import { rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { addClassThroughMenu, CONNECTED, DIST, launchPersistent, signInWithForm } from '../helpers/browser';
import { serverTitles, startTestServer, type TestServer } from '../helpers/server';

const SAVED_OFFLINE = 'saved on this device, will be sent when online';
const SYNC_TAG = 'outbox-replay';

interface App {
  server: TestServer;
  context: BrowserContext;
  profile: string;
}

const opened: App[] = [];

afterEach(async () => {
  for (const app of opened.splice(0)) {
    await app.context.close();
    await app.server.close();
    await rm(app.profile, { recursive: true, force: true });
  }
});

/**
 * Removes Background Sync before any script of the app runs, as in a browser without it
 * (Firefox, Safari). Also lets a test stop the window from hearing 'online', to show that
 * focus alone sends what waits: a capture listener registered first runs first at the target.
 */
function withoutBackgroundSync(): void {
  const w = window as unknown as Record<string, unknown>;
  delete w.SyncManager;
  delete (ServiceWorkerRegistration.prototype as unknown as Record<string, unknown>).sync;
  window.addEventListener(
    'online',
    (event) => {
      if (w.__swallowOnline) event.stopImmediatePropagation();
    },
    true,
  );
}

async function openApp(options: { backgroundSync: boolean }): Promise<App> {
  const server = await startTestServer({ staticDir: DIST });
  const { context, profile } = await launchPersistent();
  const app = { server, context, profile };
  opened.push(app);
  if (!options.backgroundSync) await context.addInitScript(withoutBackgroundSync);
  return app;
}

/** The queue has settled (the indicator says Online) and the server has the class exactly once. */
async function expectSettledOnce(page: Page, server: TestServer, name: string): Promise<void> {
  await expect
    .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 20_000 })
    .toMatch(CONNECTED);
  expect(await serverClassNames(server)).toEqual([name]);
}

const serverClassNames = (server: TestServer) => serverTitles(server.apiRoot, classEntity);

/** Signs in through the real form and waits until the service worker controls the page. */
async function signInAndWaitForWorker(app: App): Promise<Page> {
  const page = app.context.pages()[0] ?? (await app.context.newPage());
  await signInWithForm(page, app.server.url);
  return page;
}

/** The real Add Class form, offline: the change is saved on this device only. */
async function addClassOffline(page: Page, name: string): Promise<void> {
  await addClassThroughMenu(page, name);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: SAVED_OFFLINE }).count())
    .toBeGreaterThan(0);
}

const hasBackgroundSync = (page: Page) =>
  page.evaluate(async () => 'sync' in (await navigator.serviceWorker.ready) && 'SyncManager' in window);

/** Outbox entries in the app's IndexedDB, read inside the service worker (no page needed). */
async function workerOutboxCount(context: BrowserContext): Promise<number> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('No service worker in the context');
  return worker.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('textbook-admin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Signed in without Background Sync, then a fresh load of the home page: the window's own
 * 30 s retry timer starts at `loadedAt`, so a send well before that has another cause.
 */
async function freshWindowWithoutBackgroundSync(): Promise<{ app: App; page: Page; loadedAt: number }> {
  const app = await openApp({ backgroundSync: false });
  const page = await signInAndWaitForWorker(app);
  expect(await hasBackgroundSync(page)).toBe(false);
  await page.goto(`${app.server.url}/homepage`);
  return { app, page, loadedAt: Date.now() };
}

describe('With Background Sync, the service worker sends', () => {
  it('a class added offline, exactly once, after the page is closed and the network is back', async () => {
    const app = await openApp({ backgroundSync: true });
    const page = await signInAndWaitForWorker(app);
    expect(await hasBackgroundSync(page)).toBe(true);

    await app.context.setOffline(true);
    await addClassOffline(page, 'Sent by the worker');
    // The window registers the sync tag after saving (src/app/sync-runner.ts changeSaved);
    // wait for it, so that closing the page cannot race the registration.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
            sync: { getTags(): Promise<string[]> };
          };
          return reg.sync.getTags();
        }),
      )
      .toContain(SYNC_TAG);
    expect(await serverClassNames(app.server)).toEqual([]);

    await page.close();
    expect(app.context.pages()).toHaveLength(0);
    await app.context.setOffline(false);

    // Only the worker can send it now: no page is open.
    await expect
      .poll(() => serverClassNames(app.server), { timeout: 30_000 })
      .toEqual(['Sent by the worker']);
    // The worker's replay has applied the reply (the entry left the outbox), so nothing more
    // can be sent: the server's list is final, and holds the class once.
    await expect.poll(() => workerOutboxCount(app.context), { timeout: 30_000 }).toBe(0);
    expect(await serverClassNames(app.server)).toEqual(['Sent by the worker']);
    expect(app.context.pages()).toHaveLength(0);
  });
});

describe('Without Background Sync, the window sends', () => {
  it('nothing while no page is open, then what waits when the app starts again', async () => {
    const app = await openApp({ backgroundSync: false });
    const page = await signInAndWaitForWorker(app);
    expect(await hasBackgroundSync(page)).toBe(false);

    await app.context.setOffline(true);
    await addClassOffline(page, 'Sent at start');
    await page.close();
    await app.context.setOffline(false);

    // The worker has no sync registration and no page is open: nobody may send it. (With
    // Background Sync, the case above gets it there within milliseconds of reconnecting.)
    await pause(3000);
    expect(await serverClassNames(app.server)).toEqual([]);
    expect(await workerOutboxCount(app.context)).toBe(1);

    const again = await app.context.newPage();
    await again.goto(`${app.server.url}/classes`);
    await expect.poll(() => serverClassNames(app.server), { timeout: 20_000 }).toEqual(['Sent at start']);
    await expectSettledOnce(again, app.server, 'Sent at start');
  });

  it("on reconnect, from the window's 'online' handler", async () => {
    // The window's 30 s timer cannot fire before the deadline below, so only the 'online'
    // handler can explain a send within it.
    const { app, page, loadedAt } = await freshWindowWithoutBackgroundSync();

    await app.context.setOffline(true);
    await addClassOffline(page, 'Sent on reconnect');
    expect(await serverClassNames(app.server)).toEqual([]);

    await app.context.setOffline(false);
    await expect.poll(() => serverClassNames(app.server), { timeout: 10_000 }).toEqual(['Sent on reconnect']);
    expect(Date.now() - loadedAt).toBeLessThan(30_000);
    await expectSettledOnce(page, app.server, 'Sent on reconnect');
  });

  it('on focus, what waits', async () => {
    const { app, page, loadedAt } = await freshWindowWithoutBackgroundSync();

    await app.context.setOffline(true);
    await addClassOffline(page, 'Sent on focus');
    // Back online, but the window does not hear of it (see withoutBackgroundSync): the change
    // waits until something else wakes the window.
    await page.evaluate(() => {
      (window as unknown as Record<string, unknown>).__swallowOnline = true;
    });
    await app.context.setOffline(false);
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await pause(3000);
    expect(await serverClassNames(app.server)).toEqual([]);
    // The window's 30 s timer would also have sent it: this wait must have ended before it.
    expect(Date.now() - loadedAt).toBeLessThan(25_000);

    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => serverClassNames(app.server), { timeout: 10_000 }).toEqual(['Sent on focus']);
    await expectSettledOnce(page, app.server, 'Sent on focus');
  });
});
