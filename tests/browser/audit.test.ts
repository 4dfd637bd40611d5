/**
 * The audit trail screen in Chromium: a class added and edited through the app is
 * listed with what changed, its edit form links to its history, the filters narrow the list,
 * and offline the screen says that history needs a connection and shows what it fetched last.
 * It speaks in words: the record by name with a link to its form, records it refers to by name
 * with their ids beside, fields in the form's order, times in the administrator's locale.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bookEntity, classEntity, schoolEntity } from '../../src/contract/entities';
import { encodeRouteId } from '../../src/ui/route-id';
import { browserSuite, signInWithForm } from '../helpers/browser';
import { pngFile } from '../helpers/files';
import { api, serverTitles, signIn } from '../helpers/server';

// The demo data: a student with a school and books to assign, records to name.
const suite = browserSuite({ seedDemo: true });
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await suite.browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, suite.server.url);
});
afterAll(async () => context?.close());

const onServer = (name: string) =>
  expect.poll(() => serverTitles(suite.server.apiRoot, classEntity), { timeout: 20_000 }).toContain(name);

async function serverId(name: string): Promise<string> {
  const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const { body } = await admin.get(classEntity.api.list, { search: name });
  return String(body.classes.find((c: { class_name: string }) => c.class_name === name).class_id);
}

it('lists changes with filters, opens a record’s history from its form, and offline shows the last answer', async () => {
  const url = suite.server.url;
  await page.goto(`${url}/addclasses`);
  await page.getByLabel('Class Name').fill('Audited class');
  await page.getByRole('button', { name: 'Add Class' }).click();
  await page.waitForURL(/\/classes/);
  await onServer('Audited class');
  const id = await serverId('Audited class');
  const edit = `${url}/updateclass/${encodeRouteId(id)}`;
  await page.goto(edit);
  await page.getByLabel('Class Name').fill('Audited class 2');
  await page.getByRole('button', { name: 'Update Class' }).click();
  await page.waitForURL(/\/classes/);
  await onServer('Audited class 2');

  // The edit form links to the record's history.
  await page.goto(edit);
  await page.getByRole('link', { name: 'History of this class' }).click();
  await page.waitForURL(new RegExp(`/audit\\?entity=classes&id=${id}$`));
  const entries = page.locator('ol.audit-list > li');
  const updated = entries.filter({ hasText: 'Updated' });
  await updated.waitFor();
  expect(await updated.getByRole('row', { name: /Class Name/ }).textContent()).toBe(
    'Class NameAudited classAudited class 2',
  );
  // Who, on which device and when it was made there: the app sends both with each change.
  expect(await updated.textContent()).toMatch(/by admin.*made on the device .* · device [0-9a-f]{8}/);
  await entries.filter({ hasText: 'Added' }).waitFor();
  expect(await entries.count()).toBe(2);

  // Filters: another record type has none of these; Clear shows everything again.
  await page.getByLabel('Record type').selectOption({ label: 'Schools' });
  await page.getByLabel('Record id').fill('');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByText('No changes match these filters.').waitFor();
  await page.getByRole('link', { name: 'Clear' }).click();
  await page.waitForURL(/\/audit$/);
  await updated.waitFor();

  // Offline: the history of the class as fetched last, with the notice.
  await page.goto(`${url}/audit?entity=classes&id=${id}`);
  await updated.waitFor();
  await context.setOffline(true);
  try {
    await page.reload();
    await page.getByText('History needs a connection to the server.').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'History needs' }).textContent()).toContain(
      'Showing what this device fetched on',
    );
    await updated.waitFor();
    // Filters never asked online have nothing to show.
    await page.getByLabel('Administrator').fill('someone else');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('This device has not fetched this history before.').waitFor();
    expect(await entries.count()).toBe(0);
  } finally {
    await context.setOffline(false);
  }
});

it('speaks in words: the record by name with a link, references by name and id, fields in the form’s order', async () => {
  const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const students: Record<string, string>[] = (await admin.get('Users/Students/fetchstudents.php')).body
    .students;
  const kabir = students.find((s) => s.student_name === 'Kabir Shah')!;
  const books: Record<string, string>[] = (await admin.get(bookEntity.api.list)).body.books;
  const [first, second] = books;
  const assigned = await admin.post('Users/Students/assignbook.php', {
    student_id: kabir.student_id,
    books: [{ book_id: first.book_id }, { book_id: second.book_id }],
  });
  expect(assigned.body.success).toBe(true);

  // Through the form: another school and e-mail, saved together.
  await page.goto(`${suite.server.url}/updatestudents/${encodeRouteId(String(kabir.student_id))}`);
  await page.getByLabel('Email').fill('kabir.shah@greenvalley.example');
  const school = page.getByRole('combobox', { name: 'School', exact: true });
  await expect.poll(() => school.locator('option', { hasText: 'Lakeside Public School' }).count()).toBe(1);
  await school.selectOption({ label: 'Lakeside Public School' });
  await page.getByRole('button', { name: 'Update Student' }).click();
  await page.waitForURL(/\/students/);
  await expect
    .poll(
      async () =>
        (await admin.get('Users/Students/getstudents.php', { student_id: kabir.student_id })).body.student
          .email,
    )
    .toBe('kabir.shah@greenvalley.example');

  await page.goto(`${suite.server.url}/audit?entity=students&id=${kabir.student_id}`);
  const entries = page.locator('ol.audit-list > li');
  const updated = entries.filter({ hasText: 'Updated' });
  await updated.waitFor();
  const head = updated.locator('.audit-head');
  await expect
    .poll(() => head.textContent())
    .toMatch(new RegExp(`^Updated Student “Kabir Shah” \\(ID ${kabir.student_id}\\) by admin$`));
  expect(await head.getByRole('link', { name: '“Kabir Shah”' }).getAttribute('href')).toBe(
    `/updatestudents/${encodeRouteId(String(kabir.student_id))}`,
  );
  // Fields by their labels in the form's order; the school by its name, its id beside.
  expect(await updated.locator('tbody th').allTextContents()).toEqual(['Email', 'School']);
  await expect
    .poll(() => updated.getByRole('row', { name: /School/ }).textContent())
    .toMatch(/^SchoolGreen Valley School \(ID \d+\)Lakeside Public School \(ID \d+\)$/);
  const assignment = entries.filter({ hasText: 'Assigned' });
  await expect
    .poll(() => assignment.getByRole('row', { name: /Assigned Books/ }).textContent())
    .toContain(`${first.book_name} (ID ${first.book_id}), ${second.book_name} (ID ${second.book_id})`);
  // Times in the administrator's locale, never as ISO text.
  expect(await entries.first().textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}/);
});

it('names a file by the name it had on the device, on its form and in its history', async () => {
  const admin = api(suite.server.apiRoot, await signIn(suite.server.apiRoot));
  const schools: Record<string, string>[] = (await admin.get(schoolEntity.api.list)).body.schools;
  const lakeside = schools.find((s) => s.school_name === 'Lakeside Public School')!;
  const edit = `${suite.server.url}${schoolEntity.routes.edit}/${encodeRouteId(String(lakeside.school_id))}`;
  await page.goto(edit);
  await page.getByRole('heading', { name: 'Update School' }).waitFor();
  // The demo school has no logo yet: the field takes one.
  const logo = pngFile('Lakeside crest – 2026.png', 700);
  await page.getByLabel('School Logo').setInputFiles({
    name: logo.name,
    mimeType: logo.type,
    buffer: Buffer.from(await logo.arrayBuffer()),
  });
  await page.getByRole('button', { name: 'Update School' }).click();
  await page.waitForURL(/\/schools/);
  const stored = async () =>
    ((await admin.get(schoolEntity.api.list)).body.schools as Record<string, string>[]).find(
      (s) => s.school_id === lakeside.school_id,
    )!;
  await expect.poll(async () => (await stored()).school_logo_name, { timeout: 20_000 }).toBe(logo.name);
  const storedName = String((await stored()).school_logo);

  // The form shows the current logo by that name, once the pull has brought it.
  const current = page.getByRole('img', { name: `Current School Logo: ${logo.name}` });
  const shown = async () => {
    await page.goto(edit);
    await page.getByRole('heading', { name: 'Update School' }).waitFor();
    return current.count();
  };
  await expect.poll(shown, { timeout: 45_000 }).toBe(1);
  expect(await current.getAttribute('src')).toContain(`${storedName}?name=`);

  // The history shows one row for the file, by both names, not a row for the column behind it.
  await page.goto(`${suite.server.url}/audit?entity=schools&id=${lakeside.school_id}`);
  const updated = page.locator('ol.audit-list > li').filter({ hasText: 'Updated' }).first();
  await updated.waitFor();
  expect(await updated.locator('tbody th').allTextContents()).toEqual(['School Logo']);
  await expect
    .poll(() =>
      updated
        .getByRole('row', { name: /School Logo/ })
        .locator('td')
        .last()
        .textContent(),
    )
    .toBe(`${logo.name} (stored as ${storedName})`);
});
