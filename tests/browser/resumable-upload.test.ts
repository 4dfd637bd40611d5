/**
 * A large file made offline reaches the server through the resumable upload from the service
 * worker (Background Sync, no page open): tus-js-client runs there over fetch (a worker has no
 * XMLHttpRequest and no localStorage), the chapter's request names the finished upload, and
 * the server stores the file byte for byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapterEntity } from '../../src/contract/entities';
import { DIST, launchPersistent, signInWithForm } from '../helpers/browser';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

const SYNC_TAG = 'outbox-replay';
let server: TestServer;
let launched: Awaited<ReturnType<typeof launchPersistent>>;

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST, seedDemo: true });
  launched = await launchPersistent();
});
afterAll(async () => {
  await launched?.context.close();
  await server?.close();
  if (launched) await rm(launched.profile, { recursive: true, force: true });
});

/** 6 MB: above the 4 MB from which files travel ahead, within Add Chapter's 10 MB. */
function largePng(): Buffer {
  const bytes = randomBytes(6 * 1024 * 1024);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

/**
 * Fires the app's service worker 'sync' event through the DevTools protocol (from a page that
 * is not the app's): the worker's own handler runs, with no window of the app open.
 */
async function syncEventTrigger(page: Page, appUrl: string): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(appUrl).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return async () => {
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin,
      registrationId: id,
      tag: SYNC_TAG,
      lastChance: false,
    });
  };
}

describe('a large chapter image queued offline', () => {
  it('is sent by the service worker in resumable chunks and stored intact', async () => {
    const { context } = launched;
    const page = await context.newPage();
    await signInWithForm(page, server.url);
    const requests: string[] = [];
    context.on('request', (r) => {
      if (r.serviceWorker()) requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });

    await context.setOffline(true);
    await page.goto(`${server.url}/addchapters`);
    for (const [label, option] of [
      ['Class', 'Class 1'],
      ['Subject', 'English'],
      ['Series', 'Sunrise English'],
      ['Book', 'Sunrise English Reader 1'],
    ]) {
      const select = page.getByRole('combobox', { name: label, exact: true });
      await expect.poll(() => select.locator('option', { hasText: option }).count()).toBeGreaterThan(0);
      await select.selectOption({ label: option });
    }
    await page.getByLabel('Chapter Name').fill('Scanned lesson');
    const file = largePng();
    await page
      .getByLabel('Chapter Image')
      .setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: file });
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await page.waitForURL(/\/chapters(\?|$)/);
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
    // No page of the app stays open: the service worker alone sends it.
    await page.goto('about:blank');
    await context.setOffline(false);
    const fireSync = await syncEventTrigger(page, server.url);

    const client = api(server.apiRoot, await signIn(server.apiRoot));
    const stored = async () => {
      const rows = (await client.get(chapterEntity.api.list)).body.chapters as Record<string, unknown>[];
      const row = rows.find((r) => r.chapter_title === 'Scanned lesson');
      if (!row) return null;
      return (await client.get(chapterEntity.api.get, { chapter_id: row.chapter_id as number })).body.chapter
        .chapter_image as string;
    };
    // The browser fires Background Sync on its own schedule: once connectivity returns, and
    // after a failed event only minutes later. The attempts made while the context was offline
    // left the entry in its back-off (up to a minute), so the test fires the worker's 'sync'
    // event itself, as DevTools' Background Sync panel does, until the entry is due and sent.
    await expect
      .poll(
        async () => {
          await fireSync();
          return stored();
        },
        { timeout: 90_000, interval: 2000 },
      )
      .toMatch(/\.png$/);
    const bytes = await readFile(join(server.dataDir, 'uploads', 'chapter_content', (await stored())!));
    const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(sha256(bytes)).toBe(sha256(file));
    // From the worker: the upload created, its chunks sent; the record's request named it.
    expect(requests).toContain('POST /api/uploads/resumable/');
    expect(
      requests.filter((r) => r.startsWith('PATCH /api/uploads/resumable/')).length,
    ).toBeGreaterThanOrEqual(2);
  });
});
