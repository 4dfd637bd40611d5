/**
 * The outbox screen in Chromium against the built app and the real server (rules 4, 5, 8):
 * a change the server refuses is shown with the spec's text and the server's reason and can
 * be corrected with Edit; a conflict shows on its list row and its form, leading to the outbox,
 * where it is settled side by side; Discard puts things back.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, CONNECTED, signInWithForm } from '../helpers/browser';
import { api, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;
let admin: ReturnType<typeof api>;

beforeAll(async () => {
  admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  for (const className of ['Class A', 'Class B'])
    await admin.post('Masterfilter/Classes/addclasses.php', { className });
  await admin.post('Masterfilter/Subjects/addsubjects.php', {
    subjectName: 'Art',
    subjectContent: '<p>Art</p>',
  });
  context = await suite.browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, suite.server.url);
  await page.goto(`${suite.server.url}/classes`);
  await page.getByText('Class B').waitFor();
});

async function classes(): Promise<{ class_id: number; class_name: string }[]> {
  return (await admin.get('Masterfilter/Classes/fetchclasses.php')).body.classes;
}

const status = () => page.getByTestId('sync-status').textContent();

describe('the outbox screen', () => {
  it('shows a refused change with the spec’s text and the reason, and Edit corrects it', async () => {
    await context.setOffline(true);
    await page.goto(`${suite.server.url}/addseries`);
    await page.getByRole('combobox', { name: 'Class', exact: true }).selectOption({ label: 'Class A' });
    await page.getByRole('combobox', { name: 'Subject', exact: true }).selectOption({ label: 'Art' });
    await page.getByLabel('Series Name').fill('Colours');
    await page.getByRole('button', { name: 'Add Series' }).click();
    await page.waitForURL(/\/series/);
    await page.getByTestId('sync-status').click();
    const queued = page.getByRole('row').filter({ hasText: 'Series “Colours”' });
    await queued.getByRole('button', { name: 'Discard' }).waitFor();
    // Never tried yet: nothing to retry.
    expect(await queued.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // Meanwhile the class is deleted on the server.
    const classA = (await classes()).find((c) => c.class_name === 'Class A')!;
    await admin.post('Masterfilter/Classes/deleteclasses.php', { class_id: classA.class_id });
    await context.setOffline(false);
    await expect.poll(status, { timeout: 15_000 }).toMatch(/1 failed/);

    await page.getByTestId('sync-status').click();
    const row = page.getByRole('row').filter({ hasText: 'Series “Colours”' });
    await expect.poll(() => row.textContent()).toContain('Failed to add series');
    expect(await row.textContent()).toContain('Class does not exist');
    expect(await row.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);

    await row.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('combobox', { name: 'Class', exact: true }).selectOption({ label: 'Class B' });
    await page.getByRole('button', { name: 'Update Series' }).click();
    await expect
      .poll(async () => (await admin.get('Masterfilter/Series/fetchseries.php')).body.series, {
        timeout: 15_000,
      })
      .toEqual([expect.objectContaining({ series_name: 'Colours', class_name: 'Class B' })]);
    await expect.poll(status).toMatch(CONNECTED);
  });

  it('holds an edit that meets a change on the server, and sends the chosen value', async () => {
    const classB = (await classes()).find((c) => c.class_name === 'Class B')!;
    await context.setOffline(true);
    await page.goto(`${suite.server.url}/classes`);
    await page.getByRole('row').filter({ hasText: 'Class B' }).getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Class Name').fill('Class B (here)');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await page.waitForURL(/\/classes/);
    await admin.post('Masterfilter/Classes/updateclasses.php', {
      class_id: classB.class_id,
      className: 'Class B (server)',
      sortOrder: 0,
    });
    await context.setOffline(false);
    await expect.poll(status, { timeout: 15_000 }).toMatch(/1 failed/);

    // The list row says so where the record is, and leads to the choice.
    const choice = page.getByRole('row').filter({ hasText: 'Class B (here)' }).getByRole('link', {
      name: 'Needs your choice',
    });
    await expect.poll(() => choice.count()).toBe(1);
    // So does the record's form.
    await page
      .getByRole('row')
      .filter({ hasText: 'Class B (here)' })
      .getByRole('link', { name: 'Edit' })
      .click();
    const onForm = page
      .getByRole('status')
      .filter({ hasText: 'was changed on the server since your change' });
    await expect.poll(() => onForm.count()).toBe(1);
    await onForm.getByRole('link', { name: 'Needs your choice' }).click();
    await page.waitForURL(/\/outbox$/);
    const panel = page.getByRole('group', { name: /Changed on the server since this edit began/ });

    await expect.poll(() => panel.textContent()).toContain('Changed on the server since this edit began');
    // Said once, by the panel.
    const row = page.getByRole('row').filter({ has: panel });
    expect((await row.textContent())?.split('Changed on the server since this edit began')).toHaveLength(2);
    expect(await panel.textContent()).toContain('Class B (here)');
    expect(await panel.textContent()).toContain('Class B (server)');
    await panel.getByRole('radio', { name: 'Class B (server)' }).check();
    await panel.getByRole('button', { name: 'Apply choices' }).click();
    await expect.poll(status, { timeout: 15_000 }).toMatch(CONNECTED);
    expect((await classes()).map((c) => c.class_name)).toContain('Class B (server)');
    await page.goto(`${suite.server.url}/classes`);
    await expect.poll(() => page.getByText('Class B (server)').count()).toBe(1);
  });

  it('Discard drops a change the server cannot take, and the list follows the server', async () => {
    const { body } = await admin.post('Masterfilter/Classes/addclasses.php', { className: 'Class C' });
    await page.goto(`${suite.server.url}/outbox`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.goto(`${suite.server.url}/classes`);
    await page.getByText('Class C').waitFor();
    await context.setOffline(true);
    await page.getByRole('row').filter({ hasText: 'Class C' }).getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Class Name').fill('Never sent');
    await page.getByRole('button', { name: 'Update Class' }).click();
    await page.waitForURL(/\/classes/);
    await admin.post('Masterfilter/Classes/deleteclasses.php', { class_id: body.id });
    await context.setOffline(false);
    await expect.poll(status, { timeout: 15_000 }).toMatch(/1 failed/);

    await page.goto(`${suite.server.url}/outbox`);
    const row = page.getByRole('row').filter({ hasText: 'Never sent' });
    await expect.poll(() => row.textContent()).toContain('This class was deleted on the server.');
    expect(await row.textContent()).toContain('Failed to update class');
    await row.getByRole('button', { name: 'Discard' }).click();
    // The discarded change did not reach the server, and the screen says so.
    await expect.poll(() => page.getByText('Discarded changes were not sent').count()).toBe(1);
    expect(await page.getByText('Every change has reached the server.').count()).toBe(0);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.goto(`${suite.server.url}/classes`);
    await expect.poll(() => page.getByText(/Class C|Never sent/).count(), { timeout: 10_000 }).toBe(0);
  });
});
