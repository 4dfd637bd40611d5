/**
 * Roles on a tablet, in Chromium against the built app and the real server: an Owner adds an
 * Editor at /administrators and the Editor signs in to the Editor's menus and buttons; a
 * Viewer reads every list without a changing control, and a changing screen says why; a role
 * taken away while a form is open refuses the save offline with the server's words and keeps
 * what was typed, queueing nothing; every administrator changes their own password at
 * /account. The screens keep the tablet rules (touch targets, no sideways scroll, axe).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TEXT, ADMINS_PATHS } from '../../../src/contract/accounts/admins-api';
import { axeFindings } from '../../helpers/axe';
import { browserSuite, signInWithForm, storedAll, storedCount, storedValue } from '../../helpers/browser';
import { clipping, LANDSCAPE, measureTargets, PORTRAIT, tabletContext } from '../../helpers/tablet';

const suite = browserSuite({ seedDemo: true });
const SHOTS = process.env.SHOTS_DIR;
const contexts: BrowserContext[] = [];
let owner: Page;

beforeAll(async () => {
  const context = await tabletContext(suite.browser, LANDSCAPE);
  contexts.push(context);
  owner = await context.newPage();
  await signInWithForm(owner, suite.server.url);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
});

/** Whether `secret` is anywhere the app keeps things on the device: every store of its IndexedDB, localStorage, sessionStorage. */
function keptOnDevice(page: Page, secret: string): Promise<boolean> {
  return page.evaluate(async (text) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('textbook-admin');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const names = [...db.objectStoreNames];
    const all = await Promise.all(
      names.map(
        (name) =>
          new Promise<unknown[]>((resolve, reject) => {
            const request = db.transaction(name).objectStore(name).getAll();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          }),
      ),
    );
    db.close();
    const stored =
      JSON.stringify(all) + JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    return stored.includes(text);
  }, secret);
}

/** A tablet signed in through the form as `username`. */
async function tabletAs(username: string, password: string, viewport = PORTRAIT): Promise<Page> {
  const context = await tabletContext(suite.browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${suite.server.url}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/homepage$/);
  return page;
}

/** An administrator added by the Owner through the API, as another Owner's tool would. */
async function addAdmin(username: string, password: string, role: string): Promise<void> {
  const reply = await owner.evaluate(
    async ([path, body]) => {
      const r = await fetch(`/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return r.json();
    },
    [ADMINS_PATHS.add, { username, password, role }] as const,
  );
  expect(reply).toMatchObject({ success: true });
}

/** The links of every menu, as the top bar offers them (the drawer's lists included). */
const menuLinks = (page: Page) =>
  page.locator('#main-nav .menu-list a').evaluateAll((links) => links.map((a) => a.textContent?.trim()));

async function tabletRules(page: Page, what: string): Promise<void> {
  const small = (await measureTargets(page)).filter((t) => t.width < 44 || t.height < 44);
  expect(small, `${what}: targets under 44 px`).toEqual([]);
  expect(await clipping(page), what).toEqual([]);
  expect((await axeFindings(page, what)).violations).toEqual([]);
}

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function bothSizes(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  for (const [label, size] of [
    ['768x1024', PORTRAIT],
    ['1024x768', LANDSCAPE],
  ] as const) {
    await page.setViewportSize(size);
    await ready();
    await tabletRules(page, `${name} at ${label}`);
    await shoot(page, `${name}-${label}`);
  }
}

describe('an Owner and an Editor', () => {
  it('the Owner adds an Editor at /administrators; the Editor sees the Editor’s menus and buttons', async () => {
    await owner.goto(`${suite.server.url}/administrators`);
    await owner.getByLabel('Username').fill('edna.editor');
    await owner.getByLabel('Initial password').fill('edna');
    await owner.getByLabel('Role', { exact: true }).selectOption('Editor');
    await owner.getByRole('button', { name: 'Add administrator' }).click();
    await expect.poll(() => owner.getByRole('alert').first().textContent()).toBe(ACCOUNT_TEXT.shortPassword);
    await owner.getByLabel('Initial password').fill('edna-editor-password');
    await owner.getByRole('button', { name: 'Add administrator' }).click();
    const row = owner.locator('tbody tr').filter({ hasText: 'edna.editor' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole('combobox').inputValue()).toBe('Editor');
    // The form keeps no password once added.
    expect(await owner.getByLabel('Initial password').inputValue()).toBe('');
    await bothSizes(owner, 'administrators', () => row.waitFor());

    const editor = await tabletAs('edna.editor', 'edna-editor-password');
    const links = await menuLinks(editor);
    expect(links).toEqual(expect.arrayContaining(['Classes', 'Schools', 'About Us', 'My account']));
    expect(links).not.toContain('Administrators');
    expect(links).not.toContain('Audit Trail');

    await editor.goto(`${suite.server.url}/classes`);
    await editor.getByRole('link', { name: 'Add Class' }).waitFor();
    await editor.goto(`${suite.server.url}/schools`);
    await editor.locator('tbody td.cell-primary').first().waitFor();
    expect(await editor.getByRole('link', { name: 'Add School' }).count()).toBe(0);
    expect(await editor.getByRole('link', { name: 'Import' }).count()).toBe(0);
    expect(await editor.getByRole('button', { name: /^(Delete|Disable|Enable)$/ }).count()).toBe(0);
    expect(await editor.getByRole('link', { name: 'View' }).count()).toBeGreaterThan(0);

    await editor.goto(`${suite.server.url}/addschools`);
    await expect
      .poll(() => editor.getByRole('alert').first().textContent())
      .toContain('An Editor cannot change schools.');
    await editor.goto(`${suite.server.url}/administrators`);
    await expect
      .poll(() => editor.getByRole('alert').first().textContent())
      .toBe('An Editor cannot manage administrators.');
  });

  it('a role taken away while a form is open: the save is refused offline with the text, what was typed stays, nothing is queued', async () => {
    const editor = await tabletAs('edna.editor', 'edna-editor-password');
    await editor.goto(`${suite.server.url}/addclasses`);
    await editor.getByLabel('Class Name').fill('Typed by the Editor');
    // A list open in another tab: its add button and its rows' buttons follow the role live.
    const list = await editor.context().newPage();
    await list.goto(`${suite.server.url}/classes`);
    const addButton = list.getByRole('link', { name: 'Add Class' });
    await expect.poll(() => addButton.count()).toBe(1);
    const deletes = list.locator('tbody').getByRole('button', { name: 'Delete' });
    await expect.poll(() => deletes.count()).toBeGreaterThan(0);

    await owner.goto(`${suite.server.url}/administrators`);
    const row = owner.locator('tbody tr').filter({ hasText: 'edna.editor' });
    await row.getByRole('combobox').selectOption('Viewer');
    await expect.poll(() => owner.getByText(ACCOUNT_TEXT.updated).count()).toBeGreaterThan(0);

    // Back online after a moment offline, the device pulls, and the pull tells the new role.
    await editor.context().setOffline(true);
    await editor.context().setOffline(false);
    await expect
      .poll(
        async () => ((await storedValue(editor, 'meta', 'role:edna.editor')) as { value?: string })?.value,
        {
          timeout: 30_000,
        },
      )
      .toBe('Viewer');
    await expect.poll(() => addButton.count()).toBe(0);
    await expect.poll(() => deletes.count()).toBe(0);
    await list.close();
    await editor.context().setOffline(true);
    await editor.getByRole('button', { name: 'Add Class' }).click();
    await expect
      .poll(() => editor.locator('.form-error').textContent())
      .toBe('A Viewer cannot change classes.');
    expect(await editor.getByLabel('Class Name').inputValue()).toBe('Typed by the Editor');
    expect(await storedCount(editor, 'outbox')).toBe(0);
    await editor.context().setOffline(false);
  });
});

describe('a School manager', () => {
  it('changes schools, teachers and students, not the content: the buttons and screens say so', async () => {
    await addAdmin('sam.manager', 'sam-manager-password', 'School manager');
    const manager = await tabletAs('sam.manager', 'sam-manager-password');
    await manager.goto(`${suite.server.url}/students`);
    await manager.getByRole('link', { name: 'Add Student' }).waitFor();
    await manager.goto(`${suite.server.url}/schools`);
    await manager.getByRole('link', { name: 'Add School' }).waitFor();
    await manager.goto(`${suite.server.url}/classes`);
    await manager.locator('tbody td.cell-primary').first().waitFor();
    expect(await manager.getByRole('link', { name: 'Add Class' }).count()).toBe(0);
    await manager.goto(`${suite.server.url}/addclasses`);
    await expect
      .poll(() => manager.getByRole('alert').first().textContent())
      .toContain('A School manager cannot change classes.');
    expect(await manager.getByLabel('Class Name').count()).toBe(0);
  });
});

describe('a disabled account', () => {
  it('its tablet’s waiting change: the sign-in is refused with the words, and the change shows as failed with them', async () => {
    await addAdmin('dora.departed', 'dora-departed-password', 'Editor');
    const tablet = await tabletAs('dora.departed', 'dora-departed-password');
    await tablet.goto(`${suite.server.url}/addclasses`);
    await tablet.context().setOffline(true);
    await tablet.getByLabel('Class Name').fill('Queued before leaving');
    await tablet.getByRole('button', { name: 'Add Class' }).click();
    await expect.poll(() => storedCount(tablet, 'outbox')).toBe(1);

    const admins = await owner.evaluate(
      async (path) => (await fetch(`/api/${path}`)).json(),
      ADMINS_PATHS.list,
    );
    const { id } = admins.data.find((a: { username: string }) => a.username === 'dora.departed');
    const disabled = await owner.evaluate(
      async ([path, body]) =>
        (
          await fetch(`/api/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json(),
      [ADMINS_PATHS.update, { id, status: 'Disabled' }] as const,
    );
    expect(disabled).toMatchObject({ success: true });

    // Back online the queue meets the ended session and asks for a sign-in, which is refused.
    await tablet.context().setOffline(false);
    await expect
      .poll(() => tablet.getByTestId('sync-status').textContent(), { timeout: 30_000 })
      .toMatch(/sign in/i);
    await tablet.goto(`${suite.server.url}/login`);
    await tablet.getByLabel('Username').fill('dora.departed');
    await tablet.getByLabel('Password').fill('dora-departed-password');
    await tablet.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => tablet.getByText(ACCOUNT_TEXT.disabled).count()).toBeGreaterThan(0);
    await expect
      .poll(async () => (await storedAll(tablet, 'outbox')).map((e) => [e.status, e.lastError]))
      .toEqual([['failed', ACCOUNT_TEXT.disabled]]);
    expect(
      await suite.server.query("SELECT 1 FROM classes WHERE class_name = 'Queued before leaving'"),
    ).toEqual([]);
  });
});

describe('a Viewer', () => {
  let viewer: Page;
  beforeAll(async () => {
    await addAdmin('vera.viewer', 'vera-viewer-password', 'Viewer');
    viewer = await tabletAs('vera.viewer', 'vera-viewer-password');
  });

  it('reads the lists without a control that changes anything; a changing screen says why', async () => {
    await viewer.goto(`${suite.server.url}/schools`);
    await viewer.locator('tbody td.cell-primary').first().waitFor();
    expect(await viewer.getByRole('link', { name: /^(Add School|Import|Edit)$/ }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: /^(Delete|Disable|Enable)$/ }).count()).toBe(0);
    expect(await viewer.getByRole('checkbox').count()).toBe(0);
    // The status is read where its button would be.
    expect(await viewer.locator('tbody td[data-label="Status"]').first().textContent()).toBe('Enabled');
    await viewer
      .getByRole('link', { name: 'Export CSV' })
      .or(viewer.getByRole('button', { name: 'Export CSV' }))
      .waitFor();
    await bothSizes(viewer, 'viewer-schools', () =>
      viewer.locator('tbody td.cell-primary').first().waitFor(),
    );

    await viewer.setViewportSize(PORTRAIT);
    await viewer.getByRole('link', { name: 'View' }).first().click();
    await expect
      .poll(() => viewer.getByRole('status').filter({ hasText: 'A Viewer cannot change schools.' }).count())
      .toBe(1);
    expect(await viewer.getByRole('button', { name: 'Update School' }).count()).toBe(0);
    expect(await viewer.getByLabel('School Name').isDisabled()).toBe(true);

    await viewer.goto(`${suite.server.url}/addclasses`);
    await expect
      .poll(() => viewer.getByRole('alert').first().textContent())
      .toContain('A Viewer cannot change classes.');
    expect(await viewer.getByLabel('Class Name').count()).toBe(0);
    await viewer.goto(`${suite.server.url}/audit`);
    await expect
      .poll(() => viewer.getByRole('alert').first().textContent())
      .toBe('A Viewer cannot read the audit trail.');

    // About Us reads as the others do: its rich text cannot be typed into either.
    await viewer.goto(`${suite.server.url}/updateaboutus`);
    const content = viewer.getByRole('textbox', { name: 'About Us Content' });
    await expect.poll(() => content.getAttribute('contenteditable'), { timeout: 20_000 }).toBe('false');
    expect(await viewer.getByRole('button', { name: 'Bold' }).isDisabled()).toBe(true);
  });

  it('changes their own password at /account, checked on the device first', async () => {
    await viewer.goto(`${suite.server.url}/account`);
    await viewer.getByLabel('Current password').fill('vera-viewer-password');
    await viewer.getByLabel('New password', { exact: true }).fill('short');
    await viewer.getByLabel('Confirm new password').fill('short');
    await viewer.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => viewer.getByRole('alert').first().textContent()).toBe(ACCOUNT_TEXT.shortPassword);
    await viewer.getByLabel('New password', { exact: true }).fill('vera-new-password');
    await viewer.getByLabel('Confirm new password').fill('vera-new-passw0rd');
    await viewer.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => viewer.getByRole('alert').first().textContent()).toContain('not the same');
    await viewer.getByLabel('Confirm new password').fill('vera-new-password');
    await viewer.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => viewer.getByRole('status').filter({ hasText: ACCOUNT_TEXT.passwordChanged }).count())
      .toBe(1);
    expect(await viewer.getByLabel('Current password').inputValue()).toBe('');
    await bothSizes(viewer, 'account', () => viewer.getByRole('heading', { name: 'My account' }).waitFor());

    // Offline it says it needs the server, and sends nothing.
    await viewer.context().setOffline(true);
    await expect
      .poll(() => viewer.getByRole('status').filter({ hasText: 'needs the server' }).count())
      .toBe(1);
    await viewer.context().setOffline(false);
    await tabletAs('vera.viewer', 'vera-new-password');
    // Neither password is kept anywhere on the device (the offline sign-in keeps a verifier),
    // where the username is (the scan reads what is there).
    expect(await keptOnDevice(viewer, 'vera.viewer')).toBe(true);
    expect(await keptOnDevice(viewer, 'vera-new-password')).toBe(false);
    expect(await keptOnDevice(viewer, 'vera-viewer-password')).toBe(false);
    expect(await keptOnDevice(owner, 'edna-editor-password')).toBe(false);
  });
});
