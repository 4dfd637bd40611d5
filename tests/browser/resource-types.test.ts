/**
 * Resource types through the real screens (spec §2 "Library and resources"): the list with
 * the spec's own texts ('S.No.', '+ Add Resource Type', 'No resouce type found.') and an
 * Actions column with Edit only, the add and edit forms with their buttons and the entry-type
 * select, online and offline; the server ends with what was typed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, signedInTab } from '../helpers/browser';
import { api, signIn } from '../helpers/server';

const suite = browserSuite();
let context: BrowserContext;
let page: Page;

signedInTab(suite, (tab) => {
  ({ context, page } = tab);
});

async function serverTypes(): Promise<{ title: string; entry_type: number }[]> {
  const client = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  return (await client.get('Resources/ResourceTypes/index.php', { type: 'fetch' })).body.resource_types;
}

/** The headers' texts as read out: without the arrow (aria-hidden) of the column the rows follow. */
const headers = () =>
  page.locator('thead th').evaluateAll((ths) =>
    ths.map((th) => {
      const copy = th.cloneNode(true) as HTMLElement;
      for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return copy.textContent;
    }),
  );

describe('resource types, through the screens', () => {
  it('lists with the spec’s texts and columns, adds and edits, offline too', async () => {
    await page.getByText('RESOURCES').click();
    await page.getByRole('link', { name: 'Resource Types' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Manage Resource Types' }).count()).toBe(1);
    await expect.poll(() => page.getByText('No resouce type found.').count()).toBe(1);
    expect(await headers()).toEqual(['S.No.', 'Title', 'Type', 'Actions']);
    // Rows follow S.No. until another header is chosen.
    expect(await page.getByRole('columnheader', { name: 'S.No.' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );

    await page.getByRole('link', { name: '+ Add Resource Type' }).click();
    await page.getByLabel('Title').fill('Lab Video');
    const type = page.getByRole('combobox', { name: 'Resource Entry Type' });
    expect(await type.locator('option').allTextContents()).toEqual([
      'Select Resource Entry Type',
      'Link',
      'File Upload',
      'Textarea & Link',
      'Iframe',
      'Textarea',
      'Audio',
    ]);
    await type.selectOption({ label: 'Link' });
    await page.getByRole('button', { name: 'Save Resource Type' }).click();
    await page.waitForURL(/\/resource-types(\?|$)/);
    const row = page.getByRole('row').filter({ hasText: 'Lab Video' });
    await expect
      .poll(() => row.locator('td:not(.cell-select)').allTextContents())
      .toEqual(['1', 'Lab Video', 'Link', 'Edit']);
    expect(await row.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await expect.poll(async () => (await serverTypes()).map((t) => t.title)).toEqual(['Lab Video']);

    await context.setOffline(true);
    await row.getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Lab Video');
    await page.getByLabel('Title').fill('Lab Videos');
    await page.getByRole('combobox', { name: 'Resource Entry Type' }).selectOption({ label: 'Audio' });
    await page.getByRole('button', { name: 'Update Resource Type' }).click();
    await page.waitForURL(/\/resource-types(\?|$)/);
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Lab Videos' }).getByText('Pending').count())
      .toBe(1);

    await context.setOffline(false);
    await expect
      .poll(async () => await serverTypes(), { timeout: 20_000 })
      .toEqual([expect.objectContaining({ title: 'Lab Videos', entry_type: 6 })]);
  });
});
