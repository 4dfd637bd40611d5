/**
 * States the administrator can trust, in Chromium against the built app and the real
 * server: with the network up but the server stopped, the indicator says 'Server unreachable'
 * and the outbox a plain sentence (the technical text behind 'Technical detail', never
 * 'Failed to fetch' on its face); Sync now and Retry always answer (offline, server
 * unreachable, sent), an offline answer goes once back online and the queue emptying is said;
 * Discard offers Undo, which puts the entry back exactly (payload with its
 * file, attempts, key), and the outbox then lists what was discarded unsent. Another
 * administrator's change reaches an open list at once, and an open edit form says at once who
 * changed its record and which fields, with Reload and Keep mine where both changed one.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { classEntity, schoolEntity } from '../../src/contract/entities';
import { PULL_ALL_PATH } from '../../src/contract/wire';
import { wireRequest } from '../../src/contract/wire-request';
import { SYNC_LOCK } from '../../src/sync/lock';
import { encodeRouteId } from '../../src/ui/route-id';
import { browserSuite, CONNECTED, signedInTab, signInWithForm } from '../helpers/browser';
import { ADMIN, api, serverTitles, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

signedInTab(suite, (tab) => {
  ({ context, page } = tab);
});

const status = () => page.getByTestId('sync-status').textContent();
const feedback = () => page.locator('.send-feedback').textContent();

async function addClass(name: string): Promise<void> {
  await page.goto(`${suite.server.url}/addclasses`);
  await page.getByLabel('Class Name').fill(name);
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
}

/** The stored outbox entries, read straight from IndexedDB; Blobs as their size and type. */
function storedEntries(): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('textbook-admin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('outbox').objectStore('outbox').getAll();
          request.onsuccess = () => {
            const plain = (v: unknown): unknown =>
              v instanceof Blob
                ? { blob: v.size, type: v.type }
                : v && typeof v === 'object'
                  ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
                  : v;
            resolve(request.result.map((e) => plain(e) as Record<string, unknown>));
            open.result.close();
          };
        };
      }),
  );
}

/** Sets `status` on every stored outbox entry whose status is `from`, straight in IndexedDB. */
function setEntryStatus(from: string, status: string): Promise<void> {
  return page.evaluate(
    ([from, status]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('textbook-admin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('outbox', 'readwrite').objectStore('outbox');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const e of all.result) if (e.status === from) store.put({ ...e, status });
          };
          store.transaction.oncomplete = () => {
            open.result.close();
            resolve();
          };
        };
      }),
    [from, status],
  );
}

/**
 * Takes the Web Lock every replayer and puller holds (src/sync/lock.ts) and keeps it. Like
 * every replayer, once it holds the lock it puts back to waiting what a replayer that died
 * mid-request left 'sending' (src/sync/dead-claims.ts): a page navigated away from, or a
 * service worker stopped, while its request was out. Nothing else would while the test holds
 * the lock, and an entry being sent cannot be discarded.
 */
async function holdSyncLock(): Promise<void> {
  await page.evaluate(
    (name) =>
      new Promise<void>((granted) => {
        void navigator.locks.request(
          name,
          () =>
            new Promise<void>((release) => {
              (window as unknown as { releaseSyncLock: () => void }).releaseSyncLock = release;
              granted();
            }),
        );
      }),
    SYNC_LOCK,
  );
  await setEntryStatus('sending', 'pending');
}

async function releaseSyncLock(): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseSyncLock: () => void }).releaseSyncLock());
}

describe('the server unreachable while the network is up', () => {
  it('says so in the indicator and in plain words on the outbox, with feedback for Sync now and Retry', async () => {
    await page.goto(`${suite.server.url}/classes`);
    await expect.poll(status).toMatch(CONNECTED);
    await suite.server.stop();
    try {
      await addClass('While down');
      await expect.poll(status, { timeout: 20_000 }).toBe('Server unreachable · 1 waiting');
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);

      await page.getByTestId('sync-status').click();
      const row = page.getByRole('row').filter({ hasText: 'Class “While down”' });
      await expect.poll(() => row.textContent()).toContain('The server could not be reached');
      // biome-ignore lint/performance/useDomNodeTextContent: what is on screen, not a closed disclosure's text
      const visible = await page.locator('main').innerText();
      expect(visible).not.toContain('Failed to fetch');
      expect(visible).not.toMatch(/TypeError|at \w+ \(/);
      await row.getByText('Technical detail').click();
      expect(await row.locator('.technical code').textContent()).toMatch(/fetch/i);

      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(feedback, { timeout: 20_000 })
        .toBe('Not sent: the server cannot be reached. 1 change will be sent when it answers.');
      await row.getByRole('button', { name: 'Retry' }).click();
      await expect
        .poll(feedback, { timeout: 20_000 })
        .toBe(
          'Add Class “While down” was not sent: the server cannot be reached. 1 change will be sent when it answers.',
        );

      await context.setOffline(true);
      await expect.poll(status).toBe('Offline · 1 waiting');
      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(feedback)
        .toBe('Not sent: this device is offline. The changes will be sent when the connection is back.');
      await context.setOffline(false);
    } finally {
      await suite.server.start();
    }
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(feedback, { timeout: 20_000 })
      .toMatch(
        /^(Sent 1 change\. Every change is on the server\.|Nothing was waiting: every change is on the server\.)$/,
      );
    await expect.poll(status, { timeout: 20_000 }).toMatch(CONNECTED);
    expect(await serverTitles(suite.server.apiRoot, classEntity)).toEqual(['While down']);
  });
});

describe('the outbox status line', () => {
  it('drops an offline answer once back online, and says so when the queue empties', async () => {
    await context.setOffline(true);
    await addClass('Back online');
    await page.goto(`${suite.server.url}/outbox`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(feedback)
      .toBe('Not sent: this device is offline. The changes will be sent when the connection is back.');
    await context.setOffline(false);
    await expect.poll(feedback, { timeout: 20_000 }).toBe('All changes were delivered.');
    expect(await page.locator('main').textContent()).not.toContain('this device is offline');
    expect(await serverTitles(suite.server.apiRoot, classEntity)).toContain('Back online');
  });
});

describe('Discard and Undo', () => {
  it('puts the entry back exactly, file and attempts included; after the moment, lists it as not sent', async () => {
    // A change queued offline.
    await context.setOffline(true);
    await page.goto(`${suite.server.url}/addclasses`);
    await page.getByLabel('Class Name').fill('Kept class');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await page.waitForURL(/\/classes/);
    await page.goto(`${suite.server.url}/outbox`);
    // The service worker's Background Sync may try the entry while the context is offline (its
    // attempts count and state then change under the test). Holding the replayers' Web Lock from
    // here to the comparison keeps every replayer out: none is halfway through an attempt when
    // the entry is rewritten below (which would write back its state 'sending', and an entry
    // being sent cannot be discarded), and 'before' is what Discard takes and Undo puts back.
    await holdSyncLock();
    // A file in its payload and attempts counted, as a resent upload has.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const open = indexedDB.open('textbook-admin');
          open.onsuccess = () => {
            const store = open.result.transaction('outbox', 'readwrite').objectStore('outbox');
            const all = store.getAll();
            all.onsuccess = () => {
              for (const e of all.result)
                store.put({
                  ...e,
                  attempts: 3,
                  payload: { ...e.payload, cover: new Blob(['xyz'], { type: 'image/png' }) },
                });
              store.transaction.oncomplete = () => {
                open.result.close();
                resolve();
              };
            };
          };
        }),
    );
    const before = await storedEntries();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      status: 'pending',
      attempts: 3,
      payload: { cover: { blob: 3, type: 'image/png' } },
    });

    const row = page.getByRole('row').filter({ hasText: 'Kept class' });
    await row.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await storedEntries()).toEqual([]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => row.count()).toBe(1);
    expect(await storedEntries()).toEqual(before);
    await releaseSyncLock();
    await page.goto(`${suite.server.url}/classes`);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Kept class' }).count()).toBe(1);

    // Discarded for good: once Undo is gone, the outbox says the change was not sent.
    await page.goto(`${suite.server.url}/outbox`);
    // A replayer may be trying the entry right now (offline, it fails), or have been cut off
    // mid-request by the navigations above, and an entry being sent cannot be discarded: the
    // lock again, so the Discard below finds it waiting.
    await holdSyncLock();
    await row.getByRole('button', { name: 'Discard' }).click();
    // The moment: Undo is offered, then goes by itself.
    await expect.poll(() => page.getByRole('button', { name: 'Undo' }).count()).toBe(1);
    await releaseSyncLock();
    await expect.poll(() => page.getByRole('button', { name: 'Undo' }).count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByText('Every change has reached the server.').count()).toBe(0);
    const notes = page.getByRole('region', { name: 'Discarded changes were not sent' });
    // The list is read from the store once the Undo moment ends: a render or two after the button goes.
    await expect
      .poll(() => notes.getByRole('listitem').allTextContents())
      .toEqual([expect.stringContaining('Add Class “Kept class”')]);
    await notes.getByRole('button', { name: 'Clear this list' }).click();
    await expect.poll(() => page.getByText('Every change has reached the server.').count()).toBe(1);
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(feedback, { timeout: 20_000 }).toMatch(/every change is on the server/i);
    // The discarded change never reached the server (read there, whatever the test before left).
    expect(await serverTitles(suite.server.apiRoot, classEntity)).not.toContain('Kept class');
  });
});

describe('a change whose replayer died mid-request, in a browser without Background Sync', () => {
  it('is waiting again when the app reopens offline: it can be discarded or edited, and is sent once later', async () => {
    // Safari and Firefox have no Background Sync: offline, no replayer runs at all there. In
    // Chromium the service worker's sync event would take the lock, release the claim as
    // every replayer does, and hide what this test is about; without the API the app never
    // registers one. And Playwright's offline switch does not reach navigator.onLine in a
    // document loaded after it was thrown (the window would then replay, and release the claim
    // too): the init script reports offline while the test says so, across reloads.
    const own = await suite.browser.newContext();
    await own.addInitScript(() => {
      delete (ServiceWorkerRegistration.prototype as { sync?: unknown }).sync;
      const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')?.get;
      Object.defineProperty(Navigator.prototype, 'onLine', {
        get() {
          return localStorage.getItem('test:offline') ? false : onLine?.call(this);
        },
      });
    });
    const tab = await own.newPage();
    try {
      await signInWithForm(tab, suite.server.url);
      [context, page] = [own, tab];
      await context.setOffline(true);
      await page.evaluate(() => localStorage.setItem('test:offline', '1'));
      await addClass('Cut off');
      expect(await page.evaluate(() => navigator.onLine)).toBe(false);
      await page.goto(`${suite.server.url}/outbox`);
      const row = page.getByRole('row').filter({ hasText: 'Cut off' });
      const discard = row.getByRole('button', { name: 'Discard' });
      await expect.poll(() => discard.isEnabled()).toBe(true);
      // What a replayer leaves when its tab closes while the request is out: the entry
      // claimed ('sending', its attempt counted) and the lock free, since it died with the tab.
      await holdSyncLock();
      await setEntryStatus('pending', 'sending');
      const [claimed] = await storedEntries();
      expect(claimed).toMatchObject({ status: 'sending' });
      await releaseSyncLock();
      await page.reload();
      // Offline no replayer runs; the window releases the claim once it finds the lock free.
      await expect.poll(() => discard.isEnabled(), { timeout: 20_000 }).toBe(true);
      expect(await storedEntries()).toEqual([{ ...claimed, status: 'pending' }]);

      await page.evaluate(() => localStorage.removeItem('test:offline'));
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect.poll(feedback, { timeout: 20_000 }).toMatch(/every change is on the server/i);
      const titles = await serverTitles(suite.server.apiRoot, classEntity);
      expect(titles.filter((t) => t === 'Cut off')).toEqual(['Cut off']);
    } finally {
      await own.close();
    }
  });
});

describe('another administrator’s change', () => {
  it('says Live while the server’s stream works, paints a class added elsewhere on the open list at once, and misses nothing committed while it was offline', async () => {
    const own = await suite.browser.newContext();
    const tab = await own.newPage();
    const shown = () => tab.getByTestId('sync-status').textContent();
    try {
      await signInWithForm(tab, suite.server.url);
      await tab.goto(`${suite.server.url}/classes?search=${encodeURIComponent('Added elsewhere')}`);
      await expect.poll(shown, { timeout: 20_000 }).toBe('Live');
      const rows = tab.getByRole('row').filter({ hasText: 'Added elsewhere' });
      expect(await rows.count()).toBe(0);
      // While Live, the poll runs only every few minutes: the list can learn of it by the stream alone.
      const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
      const elsewhere = await admin.post(classEntity.api.add!, { className: 'Added elsewhere' });
      expect(elsewhere.body.success).toBe(true);
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
      expect(await shown()).toBe('Live');

      // Offline it is no longer Live. What was committed meanwhile arrives once back online,
      // the class deleted goes, by the device's cursor; each pull is one request.
      await own.setOffline(true);
      await expect.poll(shown).toBe('Offline');
      const added = await admin.post(classEntity.api.add!, { className: 'Added elsewhere while away' });
      expect(added.body.success).toBe(true);
      const gone = await admin.post(classEntity.api.remove!, { class_id: elsewhere.body.id });
      expect(gone.body.success).toBe(true);
      const asked: string[] = [];
      tab.on('request', (r) => asked.push(new URL(r.url()).pathname));
      await own.setOffline(false);
      await expect.poll(shown, { timeout: 20_000 }).toBe('Live');
      await expect
        .poll(() => rows.allTextContents(), { timeout: 20_000 })
        .toEqual([expect.stringContaining('Added elsewhere while away')]);
      const reads = asked.filter((path) => path.endsWith('.php'));
      expect(reads, 'no list-by-list pull').toEqual([]);
      expect(asked).toContain(`/api/${PULL_ALL_PATH}`);
    } finally {
      await own.close();
    }
  });

  /** A school's values as the API takes them, named by `tag` (its e-mail must be its own). */
  const schoolValues = (tag: string, extra: Record<string, string> = {}) => ({
    school_name: `${tag} School`,
    school_address: `1 ${tag} Road`,
    password: '',
    email: `${tag.toLowerCase()}@school.example`,
    contact_no: '9876543210',
    country: 'IN',
    state: 'MH',
    city: 'Mumbai',
    ...extra,
  });

  /**
   * A school added through the API, and a tablet of its own with the school's edit form open
   * once the record has reached it, while the live stream works.
   */
  async function openSchoolForm(tag: string) {
    const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
    const added = await admin.send(
      wireRequest(schoolEntity, { op: 'add', values: { ...schoolValues(tag), password: 'school-secret' } }),
    );
    expect(added.body.success).toBe(true);
    const id = String(added.body.id);
    const own = await suite.browser.newContext();
    const tab = await own.newPage();
    await signInWithForm(tab, suite.server.url);
    await tab.goto(`${suite.server.url}/updateschools/${encodeRouteId(id)}`);
    await expect.poll(() => tab.getByTestId('sync-status').textContent(), { timeout: 20_000 }).toBe('Live');
    const field = (label: string) => tab.getByLabel(label);
    await expect.poll(() => field('School Name').inputValue(), { timeout: 20_000 }).toBe(`${tag} School`);
    /** Another administrator's edit of the school, as a whole record (what the API takes). */
    const changeElsewhere = async (extra: Record<string, string>) => {
      const reply = await admin.send(
        wireRequest(schoolEntity, { op: 'update', id, values: schoolValues(tag, extra) }),
      );
      expect(reply.body.success).toBe(true);
    };
    const banner = tab.getByRole('status').filter({ hasText: 'on another device' });
    return { own, tab, id, admin, field, banner, changeElsewhere };
  }

  it('tells an open edit form at once who changed its record and which fields; Reload takes the new values', async () => {
    const { own, tab, field, banner, changeElsewhere } = await openSchoolForm('Riverside');
    try {
      const edit = tab.url();
      // Nothing typed: the form simply shows the new value, and says who changed which field.
      await changeElsewhere({ school_address: '2 Riverside Road' });
      await expect
        .poll(() => banner.locator('p').textContent(), { timeout: 20_000 })
        .toBe(
          `${ADMIN.username} changed this school on another device: School Address. The form shows the new values.`,
        );
      expect(await field('School Address').inputValue()).toBe('2 Riverside Road');
      // OK hands the focus to the field the notice was about at the press itself: a later move
      // would take it from a field tapped right after OK, and send what is typed there elsewhere.
      const focusedOnPress = await banner.getByRole('button', { name: 'OK' }).evaluate((ok) => {
        (ok as HTMLButtonElement).click();
        return document.activeElement?.id;
      });
      expect(focusedOnPress).toBe(await field('School Address').getAttribute('id'));
      expect(await banner.count()).toBe(0);

      // Typed here, changed there: the administrator chooses; the field left alone follows at once.
      await field('School Name').fill('Riverside Typed');
      await changeElsewhere({ school_name: 'Riverside Academy', school_address: '3 Riverside Road' });
      await expect
        .poll(() => banner.locator('p').textContent(), { timeout: 20_000 })
        .toBe(
          `${ADMIN.username} changed this school on another device: School Name, School Address. ` +
            'You changed School Name here too: Reload shows the new value, Keep mine keeps yours.',
        );
      expect(await field('School Address').inputValue()).toBe('3 Riverside Road');
      expect(await field('School Name').inputValue()).toBe('Riverside Typed');
      await banner.getByRole('button', { name: 'Reload' }).click();
      expect(await field('School Name').inputValue()).toBe('Riverside Academy');
      expect(await banner.count()).toBe(0);
      // Neither saved nor moved: the form learned of it by itself.
      expect(tab.url()).toBe(edit);
    } finally {
      await own.close();
    }
  });

  it('keeps what was typed on Keep mine, and the save then sends it over the other change', async () => {
    const { own, tab, id, admin, field, banner, changeElsewhere } = await openSchoolForm('Hillside');
    try {
      await field('School Name').fill('Hillside Mine');
      await changeElsewhere({ school_name: 'Hillside Theirs', school_address: '9 Hillside Road' });
      await banner.getByRole('button', { name: 'Keep mine' }).waitFor({ timeout: 20_000 });
      expect(await banner.textContent()).toContain(
        `${ADMIN.username} changed this school on another device: School Name, School Address.`,
      );
      await banner.getByRole('button', { name: 'Keep mine' }).click();
      expect(await banner.count()).toBe(0);
      expect(await field('School Name').inputValue()).toBe('Hillside Mine');
      expect(await field('School Address').inputValue()).toBe('9 Hillside Road');
      await tab.getByRole('button', { name: 'Update School' }).click();
      await tab.waitForURL(/\/schools/);
      // The typed name wins, and the address changed elsewhere is not undone by the save.
      const stored = async () => (await admin.send(wireRequest(schoolEntity, { op: 'get', id }))).body;
      await expect
        .poll(
          async () => {
            const { school_name, school_address } = await stored();
            return { school_name, school_address };
          },
          { timeout: 20_000 },
        )
        .toEqual({ school_name: 'Hillside Mine', school_address: '9 Hillside Road' });
    } finally {
      await own.close();
    }
  });
});
