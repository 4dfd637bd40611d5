/**
 * The PWA shell: installable in Chromium, and a new version waiting is offered with a
 * prompt that reloads into it.
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

describe('PWA shell', () => {
  it('is installable in Chromium (manifest, icons, service worker)', async () => {
    const { context, profile } = await launchPersistent();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/login`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
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

    // Publish a new version: the worker's bytes change, so the browser installs it and it waits.
    const sw = join(staticDir, 'sw.js');
    await writeFile(sw, `${await readFile(sw, 'utf8')}\n// new version ${Date.now()}\n`);
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
    await context.close();
  });
});
