/**
 * Import and export through the screens, in Chromium against the built app and the
 * real server: the file chosen in a picker drawn like the forms' file fields; a students' file previewed with its problems by line and field, imported
 * offline ("k of N queued", then delivered on reconnect), a row the server refuses reported
 * and downloaded with its error; an import left queueing resumed after a reload from its first
 * row not queued; the pace of a delivery (rows a second, time left) shown while it runs; the
 * list exported and the export read back as all up to date.
 */
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolEntity } from '../../src/contract/entities';
import { wireRequest } from '../../src/contract/wire-request';
import { DIST, launchBrowser, nameCells, signInWithForm } from '../helpers/browser';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let client: ReturnType<typeof api>;
const SCHOOLS = 'Users/Schools';

async function addSchool(name: string): Promise<string> {
  const reply = await client.send(
    wireRequest(schoolEntity, {
      op: 'add',
      values: {
        school_name: name,
        school_address: 'Road 1',
        password: 'secret-12',
        email: `${name.split(' ')[0].toLowerCase()}@example.org`,
        contact_no: '12345',
        country: 'IN',
        state: 'MH',
        city: 'Pune',
      },
    }),
  );
  expect(reply.body.success).toBe(true);
  const list = (await client.get(`${SCHOOLS}/fetchschools.php`)).body.schools as Record<string, string>[];
  return String(list.find((s) => s.school_name === name)!.school_id);
}

beforeAll(async () => {
  server = await startTestServer({ staticDir: DIST });
  client = api(server.apiRoot, await signIn(server.apiRoot));
  await addSchool('Lakeside High');
  await addSchool('Closing Academy');
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  await signInWithForm(page, server.url);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const HEADER = 'Student Name;E-mail;password;Contact Number;Country;State;City;School';
const row = (name: string, email: string, school = 'Lakeside High', contact = '98765 43210') =>
  `${name};${email};secret-12;${contact};India;Maharashtra;Pune;${school}`;

const status = () =>
  page
    .getByRole('status')
    .filter({ hasText: /queued|delivered|imported|Checking/ })
    .first();

async function openImport(): Promise<void> {
  await page.goto(`${server.url}/students`);
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await page.waitForURL(/\/students\/import$/);
  await page.getByRole('heading', { name: 'Import Students' }).waitFor();
}

async function choose(name: string, text: string): Promise<void> {
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

async function downloaded(click: () => Promise<void>): Promise<string> {
  const [download] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, undefined];
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serverStudents(): Promise<Record<string, string>[]> {
  return (await client.get('Users/Students/fetchstudents.php')).body.students;
}

describe('import and export', () => {
  it('previews problems, imports offline, reports the server’s refusal and gives the refused rows back', async () => {
    // The device knows Closing Academy; the server removes it before the rows arrive.
    // The list follows the first sync as it lands: one visit, then wait for the row.
    await page.goto(`${server.url}/schools`);
    await expect.poll(() => nameCells(page, 'Closing Academy').count(), { timeout: 30_000 }).toBe(1);
    await openImport();
    const template = await downloaded(() => page.getByRole('button', { name: 'Download template' }).click());
    expect(template.split('\r\n')[0]).toBe(
      '\ufeffStudent Name,Email,Password,Contact Number,Country,State,City,Zip Code,School,Class',
    );

    await choose(
      'pupils.csv',
      [
        HEADER,
        row('Asha Rao', 'asha@example.org'),
        row('Bad Mail', 'not-an-email'),
        row('Ravi Kumar', 'ravi@example.org'),
        row('Asha Again', 'ASHA@example.org'),
        row('Gone Pupil', 'gone@example.org', 'Closing Academy'),
      ].join('\n'),
    );
    await page.getByText('3 rows ready to import').waitFor();
    // Drawn like the forms' file fields, with the chosen file's name.
    const picker = page.locator('.dropzone').filter({ has: page.getByLabel('CSV file') });
    expect(await picker.textContent()).toBe('Choose filepupils.csvor drop it here');
    const problems = await page.locator('table tbody tr').allTextContents();
    // Each problem row named, with the value at fault.
    const cells = (row: Locator) => row.locator('td').allTextContents();
    const rowsShown = page.locator('.import-preview table tbody tr');
    expect(problems).toHaveLength(2);
    expect(await cells(rowsShown.nth(0))).toEqual([
      '3',
      'Bad Mail',
      'Email',
      'not-an-email',
      'Email must be a valid e-mail address',
    ]);
    expect(await cells(rowsShown.nth(1))).toEqual([
      '5',
      'Asha Again',
      'Email',
      'ASHA@example.org',
      'Email repeats line 2',
    ]);
    const gone = await client.get(`${SCHOOLS}/fetchschools.php`);
    const closing = (gone.body.schools as Record<string, string>[]).find(
      (s) => s.school_name === 'Closing Academy',
    )!;
    expect(
      (await client.post(`${SCHOOLS}/deleteschool.php`, { school_id: closing.school_id })).body.success,
    ).toBe(true);

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toMatch(/0 of 3 delivered/);
    await context.setOffline(false);
    await page.getByText('2 imported').waitFor({ timeout: 60_000 });
    await page.getByText('1 refused').waitFor();
    await page.getByText('2 left out at the preview for their problems').waitFor();
    const names = (await serverStudents()).map((s) => s.student_name);
    expect(names.filter((n) => ['Asha Rao', 'Ravi Kumar', 'Gone Pupil'].includes(n)).sort()).toEqual([
      'Asha Rao',
      'Ravi Kumar',
    ]);

    // The rows not imported, left out at the preview or refused, each with its problem.
    const refused = await downloaded(() =>
      page.getByRole('button', { name: 'Download rows not imported' }).click(),
    );
    const lines = refused.replace('\ufeff', '').trim().split('\r\n');
    expect(lines[0]).toBe('Student Name,E-mail,password,Contact Number,Country,State,City,School,problem');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^Bad Mail,not-an-email,.*,Email must be a valid e-mail address$/);
    expect(lines[2]).toMatch(/^Asha Again,ASHA@example\.org,.*,Email repeats line 2$/);
    expect(lines[3]).toMatch(
      /^Gone Pupil,gone@example\.org,secret-12,98765 43210,India,Maharashtra,Pune,Closing Academy,.+/,
    );

    // A row without an ID names the student with its e-mail: a second import changes nothing.
    await page.getByRole('button', { name: 'Import another file' }).click();
    expect(await picker.textContent()).toContain('No file chosen');
    await choose('pupils.csv', [HEADER, row('Asha Rao', 'ASHA@example.org')].join('\n'));
    await page.getByText('0 rows ready to import').waitFor();
    await page
      .getByText('1 row names an existing student by e-mail: 0 would update it, 1 unchanged.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Import 0 rows' }).isDisabled()).toBe(true);

    // One that would change a student: the administrator updates it or skips it.
    await choose(
      'contacts.csv',
      [HEADER, row('Ravi Kumar', 'ravi@example.org', 'Lakeside High', '91234 56789')].join('\n'),
    );
    const matched = page.getByRole('group', {
      name: '1 row names an existing student by e-mail: 1 would update it, 0 unchanged.',
    });
    await matched.getByLabel('Skip those rows: add only the new ones').check();
    expect(await page.getByRole('button', { name: 'Import 0 rows' }).isDisabled()).toBe(true);
    await matched.getByLabel('Update those students').check();
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    await page.getByText('1 imported').waitFor({ timeout: 60_000 });
    const ravis = (await serverStudents()).filter((s) => s.student_name === 'Ravi Kumar');
    expect(ravis.map((r) => r.contact_no)).toEqual(['91234 56789']);
    await page.getByRole('button', { name: 'Import another file' }).click();
    await choose(
      'pupils-again.csv',
      [
        HEADER,
        row('Asha Rao', 'asha@example.org'),
        row('Bad Mail', 'not-an-email'),
        row('Ravi Kumar', 'ravi@example.org'),
        row('Asha Again', 'ASHA@example.org'),
        row('Gone Pupil', 'gone@example.org', 'Closing Academy'),
      ].join('\n'),
    );
    await page.getByText(/This file was imported on/).waitFor();
  }, 120_000);

  it('an import left queueing resumes after a reload from its first row not queued', async () => {
    const lakeside = (await client.get(`${SCHOOLS}/fetchschools.php`)).body.schools.find(
      (s: Record<string, string>) => s.school_name === 'Lakeside High',
    ).school_id;
    // What the worker keeps while it queues: three ready rows, the first already queued.
    await page.evaluate(async (school) => {
      const values = (n: number) => ({
        student_name: `Resumed ${n}`,
        email: `resumed${n}@example.org`,
        password: 'secret-12',
        contact_no: '12345',
        country: 'IN',
        school_id: school,
      });
      const open = indexedDB.open('textbook-admin');
      const idb = await new Promise<IDBDatabase>((resolve) => {
        open.onsuccess = () => resolve(open.result);
      });
      const tx = idb.transaction('imports', 'readwrite');
      tx.objectStore('imports').put({
        id: 'left-queueing#file',
        entity: '#file',
        hash: '',
        text: 'Student Name\nResumed 1\nResumed 2\nResumed 3\n',
        rows: [1, 2, 3].map((n) => ({ line: n + 1, op: 'add', values: values(n) })),
      });
      tx.objectStore('imports').put({
        id: 'left-queueing',
        entity: 'student',
        hash: 'resume-hash',
        fileName: 'resume.csv',
        total: 3,
        position: 1,
        state: 'queueing',
        startedAt: Date.now(),
      });
      await new Promise((resolve) => {
        tx.oncomplete = resolve;
      });
      idb.close();
    }, String(lakeside));
    await page.goto(`${server.url}/students/import`);
    await page.getByText('2 imported').waitFor({ timeout: 60_000 });
    const resumed = (await serverStudents())
      .map((s) => s.student_name)
      .filter((n) => n.startsWith('Resumed'));
    expect(resumed.sort()).toEqual(['Resumed 2', 'Resumed 3']);
  }, 90_000);

  it('shows the rate and the time left while rows are delivered, then what was imported', async () => {
    // Every batch after the first is held until the pace has been read, so the delivery is
    // seen half done whatever the machine's speed.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let batches = 0;
    await context.route('**/api/sync/batch', async (route) => {
      batches += 1;
      if (batches > 1) await held;
      await route.continue();
    });
    try {
      await openImport();
      const rows = Array.from({ length: 250 }, (_, i) => row(`Paced ${i}`, `paced${i}@example.org`));
      await choose('paced.csv', [HEADER, ...rows].join('\n'));
      await page.getByRole('button', { name: 'Import 250 rows' }).click();
      const pace = page.getByRole('status').locator('.import-pace');
      await pace.waitFor({ timeout: 60_000 });
      const count = (await status().textContent()) ?? '';
      const delivered = Number(/(\d+) of 250 delivered/.exec(count)?.[1]);
      expect(delivered).toBeGreaterThan(0);
      expect(delivered).toBeLessThan(250);
      expect(await pace.textContent()).toMatch(
        /^(\d+(\.\d)?) rows? a (second|minute), (less than a minute|about \d+ min|about \d+ h( \d+ min)?) left$/,
      );
    } finally {
      release();
    }
    await page.getByText('250 imported').waitFor({ timeout: 60_000 });
    expect(await page.locator('.import-pace').count()).toBe(0);
    await context.unroute('**/api/sync/batch');
    const paced = (await serverStudents()).filter((s) => s.student_name.startsWith('Paced '));
    expect(paced).toHaveLength(250);
  }, 120_000);

  it('exports the list with its search, all pages, and the export reads back as up to date', async () => {
    await page.goto(`${server.url}/students?search=a&limit=10`);
    await expect.poll(() => nameCells(page, 'Asha Rao').count(), { timeout: 20_000 }).toBe(1);
    const text = await downloaded(() => page.getByRole('button', { name: 'Export CSV' }).click());
    const lines = text.replace('\ufeff', '').trim().split('\r\n');
    // Every field of the Add form in the template's order (no password), then the status.
    expect(lines[0]).toBe(
      'ID,Student Name,Email,Contact Number,Country,State,City,Zip Code,School,Class,Status',
    );
    const names = lines.slice(1).map((l) => l.split(',')[1]);
    expect(names).toContain('Asha Rao');
    expect(names).toContain('Ravi Kumar');
    expect(names).not.toContain('Resumed 2'); // the search leaves it out
    await openImport();
    await choose('students.csv', text);
    await page.getByText(`${lines.length - 1} already up to date`).waitFor();
    await page.getByText('0 rows ready to import').waitFor();
    expect(await page.getByRole('button', { name: 'Import 0 rows' }).isDisabled()).toBe(true);
  }, 60_000);
});
