/**
 * The window's sync rounds run in the sync worker (src/sync-worker.ts). When its script cannot
 * load (here: the request refused, no service worker to serve it from its cache), the round is
 * reported failed rather than awaited for ever, and a later round starts a new worker that
 * sends what waits.
 */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { addClassThroughMenu, browserSuite, CONNECTED, signInWithoutServiceWorker } from '../helpers/browser';
import { serverTitles } from '../helpers/server';

const suite = browserSuite();

describe('the sync worker', () => {
  it('reports a round failed when its script cannot load, and the next round starts a new one', async () => {
    // No service worker: the worker's script comes from the network, where the test refuses it.
    const context = await suite.browser.newContext({ serviceWorkers: 'block' });
    let refused = 0;
    let refusing = true;
    await context.route('**/assets/sync-worker-*.js', (route) => {
      if (!refusing) return route.continue();
      refused++;
      return route.abort();
    });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && m.text().includes('The sync worker failed')) failures.push(m.text());
    });
    await signInWithoutServiceWorker(page, suite.server.url);
    await expect.poll(() => failures.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);

    refusing = false;
    await addClassThroughMenu(page, 'Class Sent After The Worker Failed');
    const sent = async () =>
      (await serverTitles(suite.server.apiRoot, classEntity)).filter(
        (t) => t === 'Class Sent After The Worker Failed',
      );
    await expect.poll(async () => (await sent()).length, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 20_000 })
      .toMatch(CONNECTED);
    expect(await sent()).toHaveLength(1);
    expect(page.workers().some((w) => w.url().includes('sync-worker'))).toBe(true);
    await context.close();
  });
});
