/**
 * The PWA shell: installable in Chromium; a start on one of the app's fixed addresses is
 * answered by the browser from the start pages cache, without the worker (src/sw-start-pages.ts),
 * and any other address by the worker, both offline; a new version waiting is offered with a
 * prompt that reloads into it, and its start pages replace the old ones.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, launchBrowser, launchPersistent } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let staticDir: string;

beforeAll(async () => {
  // A copy of the build that the test can turn into a "new version".
  staticDir = await mkdtemp(join(tmpdir(), 'pwa-dist-'));
  await cp(DIST, staticDir, { recursive: true });
  server = await startTestServer({ staticDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(staticDir, { recursive: true, force: true });
});

/** Chromium on a profile of its own, with the app's worker installed (from the sign-in page). */
async function installedOnProfile() {
  const { context, profile } = await launchPersistent();
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/login`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  return { context, profile, page };
}

describe('PWA shell', () => {
  it('is installable in Chromium (manifest, icons, service worker)', async () => {
    const { context, profile, page } = await installedOnProfile();
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, {
        timeout: 10_000,
      })
      .toEqual([]);
    const manifest = await (await page.request.get(`${server.url}/manifest.webmanifest`)).json();
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });

  it('answers a start on a fixed address from the start pages, and any other from the worker, offline', async () => {
    const { context, profile, page } = await installedOnProfile();
    const kept = await page.evaluate(async () => {
      const names = (await caches.keys()).filter((n) => n.startsWith('start-pages-'));
      const cache = await caches.open(names[0] ?? 'none');
      const page = await cache.match('/students');
      return { names, text: await page?.text(), csp: page?.headers.get('content-security-policy') };
    });
    expect(kept.names).toHaveLength(1);
    expect(kept.text).toBe(await readFile(join(staticDir, 'index.html'), 'utf8'));
    expect(kept.csp).toContain("script-src 'self' 'sha256-");

    await context.setOffline(true);
    const served = async (path: string) => {
      await page.goto(`${server.url}${path}`);
      await expect.poll(() => page.locator('#root *').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      return page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & {
          workerMatchedSourceType?: string;
        };
        return nav.workerMatchedSourceType;
      });
    };
    expect(await served('/students')).toBe('cache');
    expect(await served('/classes')).toBe('cache');
    // With a query or an id: the worker's navigation route, as before.
    expect(await served('/students?page=2')).not.toBe('cache');
    expect(await served('/updatestudents/MTI=')).not.toBe('cache');
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });

  it('offers a waiting new version and reloads into it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // An administrator who has used the app before: the page runs under the current worker.
    await page.reload();
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    const startPages = () =>
      page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('start-pages-')));
    const before = await startPages();
    expect(before).toHaveLength(1);

    // Publish a new version: the worker's bytes change, so the browser installs it and it waits.
    // Its shell changes too (outside the scripts, whose hashes the server allows).
    const sw = join(staticDir, 'sw.js');
    const shell = join(staticDir, 'index.html');
    await writeFile(shell, `${await readFile(shell, 'utf8')}<!-- new version -->\n`);
    const newShell = (text: string) =>
      text.replace(
        /"revision":"[^"]*","url":"index.html"/,
        `"revision":"new-${Date.now()}","url":"index.html"`,
      );
    const worker = await readFile(sw, 'utf8');
    expect(newShell(worker)).not.toBe(worker);
    await writeFile(sw, `${newShell(worker)}\n// new version ${Date.now()}\n`);
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update();
    });
    const prompt = page.getByRole('status').filter({ hasText: 'A new version of the app is ready.' });
    await expect.poll(() => prompt.count(), { timeout: 15_000 }).toBe(1);

    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect.poll(() => prompt.count()).toBe(0);
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: Boolean(reg?.waiting), controlled: Boolean(navigator.serviceWorker.controller) };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
    // The new version's start pages, with its shell; the old ones are gone.
    await expect.poll(startPages).toHaveLength(1);
    expect(await startPages()).not.toEqual(before);
    const kept = await page.evaluate(async () => {
      const [name] = (await caches.keys()).filter((n) => n.startsWith('start-pages-'));
      return (await (await caches.open(name ?? 'none')).match('/students'))?.text();
    });
    expect(kept).toContain('<!-- new version -->');
    await context.close();
  });
});
