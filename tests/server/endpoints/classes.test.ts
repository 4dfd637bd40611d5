/** Every Classes endpoint, success paths and refusals, over HTTP against the real suite.server. */
import { beforeEach, describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const P = classEntity.api;
const suite = signedInSuite({ seedDemo: true });

/** Every row, straight from the bare list (what the table holds). */
async function allClasses(): Promise<{ class_id: number; class_name: string; sort_order: number }[]> {
  const reply = await suite.client.get(P.list);
  expect(reply.status).toBe(200);
  return reply.body.classes;
}

describe('list (fetchclasses.php)', () => {
  it('called bare returns every row in key order with the total', async () => {
    const { status, body } = await suite.client.get(P.list);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.total).toBe(body.classes.length);
    expect(body.classes.length).toBeGreaterThanOrEqual(12);
    const ids = body.classes.map((c: { class_id: number }) => c.class_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(body.classes[0]).toMatchObject({ class_id: 1, class_name: 'Class 1', sort_order: 1 });
    expect(typeof body.classes[0].rev).toBe('number');
  });

  it('searches case-insensitively and pages with a total of the filtered rows', async () => {
    // 'class 1' matches Class 1, 10, 11 and 12.
    const first = await suite.client.get(P.list, { search: 'CLASS 1', page: 1, limit: 3, sortOption: '' });
    expect(first.body).toMatchObject({ success: true, total: 4 });
    expect(first.body.classes.map((c: { class_name: string }) => c.class_name)).toEqual([
      'Class 1',
      'Class 10',
      'Class 11',
    ]);
    const second = await suite.client.get(P.list, { search: 'class 1', page: 2, limit: 3 });
    expect(second.body.total).toBe(4);
    expect(second.body.classes.map((c: { class_name: string }) => c.class_name)).toEqual(['Class 12']);
  });

  it('treats % and _ in the search text literally', async () => {
    await suite.client.post(P.add, { className: '100% Maths_A' });
    const percent = await suite.client.get(P.list, { search: '%' });
    expect(percent.body.classes.map((c: { class_name: string }) => c.class_name)).toEqual(['100% Maths_A']);
    const underscore = await suite.client.get(P.list, { search: 's_' });
    expect(underscore.body.classes.map((c: { class_name: string }) => c.class_name)).toEqual([
      '100% Maths_A',
    ]);
  });

  it('refuses a non-numeric page or limit, and ignores an unknown sortOption', async () => {
    for (const query of [
      { page: 'x', limit: 10 },
      { page: 1, limit: 'ten' },
      { page: 1, limit: 0 },
    ]) {
      const { status, body } = await suite.client.get(P.list, query);
      expect(status).toBe(400);
      expect(body.success).toBe(false);
    }
    const sorted = await suite.client.get(P.list, { sortOption: 'whatever', limit: 2 });
    expect(sorted.body.classes.map((c: { class_id: number }) => c.class_id)).toEqual([1, 2]);
  });

  it('sorts by a known column when sortOption names one', async () => {
    const { body } = await suite.client.get(P.list, {
      sortOption: 'sort_order_desc',
      limit: 1,
      search: 'Class ',
    });
    expect(body.classes[0].class_name).toBe('Class 12');
  });
});

describe('get (getClass.php)', () => {
  it('returns the row under `class`', async () => {
    const { status, body } = await suite.client.get(P.get, { class_id: 3 });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      class: { class_id: 3, class_name: 'Class 3', sort_order: 3 },
    });
  });

  it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
    expect(await suite.client.get(P.get, { class_id: 999999 })).toMatchObject({
      status: 404,
      body: { success: false, message: 'Class not found' },
    });
    expect(await suite.client.get(P.get, { class_id: 99999999999 })).toMatchObject({ status: 404 });
    for (const id of ['abc', '-1', '0', '1.5']) {
      expect(await suite.client.get(P.get, { class_id: id })).toMatchObject({
        status: 400,
        body: { success: false },
      });
    }
    expect(await suite.client.get(P.get)).toMatchObject({ status: 400, body: { success: false } });
  });
});

describe('add, update, delete', () => {
  it('adds a class and returns its id as a number', async () => {
    const { status, body } = await suite.client.post(P.add, { className: '  Nursery  ' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, message: 'Class added successfully' });
    expect(typeof body.id).toBe('number');
    expect(body.class_id).toBe(body.id);
    const got = await suite.client.get(P.get, { class_id: body.id });
    // Trimmed, and sort_order takes the table default.
    expect(got.body.class).toMatchObject({ class_name: 'Nursery', sort_order: 0 });
  });

  it('refuses multipart, urlencoded and text bodies: a JSON endpoint takes JSON (CSRF)', async () => {
    const form = new FormData();
    form.set('className', 'From multipart');
    const sent = [
      await suite.client.post(P.add, form),
      await suite.client.post(P.add, new URLSearchParams({ className: 'From urlencoded' })),
      await suite.client.post(P.add, JSON.stringify({ className: 'From text' }), {
        'Content-Type': 'text/plain',
      }),
    ];
    for (const reply of sent) expect(reply).toMatchObject({ status: 415, body: { success: false } });
    const names = (await allClasses()).map((c) => c.class_name);
    expect(names).not.toEqual(expect.arrayContaining(['From multipart']));
    expect(names.filter((n) => n.startsWith('From '))).toEqual([]);
  });

  it('updates the name and the sort order; a missing sortOrder keeps the stored one', async () => {
    const { body: added } = await suite.client.post(P.add, { className: 'Temp' });
    const updated = await suite.client.post(P.update, {
      class_id: String(added.id),
      className: 'Renamed',
      sortOrder: 7,
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { success: true, message: 'Class updated successfully' },
    });
    expect((await suite.client.get(P.get, { class_id: added.id })).body.class).toMatchObject({
      class_name: 'Renamed',
      sort_order: 7,
    });

    await suite.client.post(P.update, { class_id: added.id, className: 'Renamed again' });
    expect((await suite.client.get(P.get, { class_id: added.id })).body.class).toMatchObject({
      class_name: 'Renamed again',
      sort_order: 7,
    });
  });

  it('deletes a class', async () => {
    const { body: added } = await suite.client.post(P.add, { className: 'Doomed' });
    const deleted = await suite.client.post(P.remove, { class_id: added.id });
    expect(deleted).toMatchObject({
      status: 200,
      body: { success: true, message: 'Class deleted successfully' },
    });
    expect(await suite.client.get(P.get, { class_id: added.id })).toMatchObject({ status: 404 });
  });
});

describe('bad inputs get a 4xx with success false and write nothing', () => {
  let before: Awaited<ReturnType<typeof allClasses>>;
  beforeEach(async () => {
    before = await allClasses();
  });
  const unchanged = async () => expect(await allClasses()).toEqual(before);

  const cases: [string, string, unknown, number][] = [
    ['add without className', P.add, {}, 400],
    ['add with an empty className', P.add, { className: '   ' }, 400],
    ['add with className as a number', P.add, { className: 42 }, 400],
    ['add with malformed JSON', P.add, '{"className": ', 400],
    ['add with a JSON array body', P.add, '[{"className":"x"}]', 400],
    ['add with a JSON string body', P.add, '"x"', 400],
    ['add with a too long className', P.add, { className: 'x'.repeat(256) }, 400],
    ['update without className', P.update, { class_id: 1 }, 400],
    ['update with className as a number', P.update, { class_id: 1, className: 5 }, 400],
    [
      'update with a non-numeric sortOrder',
      P.update,
      { class_id: 1, className: 'A', sortOrder: 'high' },
      400,
    ],
    ['update with an unknown id', P.update, { class_id: 999999, className: 'Ghost' }, 404],
    ['update with a non-numeric id', P.update, { class_id: 'one', className: 'Ghost' }, 400],
    ['update without an id', P.update, { className: 'Ghost' }, 400],
    ['update with malformed JSON', P.update, '{', 400],
    ['delete with an unknown id', P.remove, { class_id: 999999 }, 404],
    ['delete with a non-numeric id', P.remove, { class_id: '1; DROP TABLE classes' }, 400],
    ['delete without an id', P.remove, {}, 400],
    ['delete with a JSON array body', P.remove, '[1]', 400],
  ];

  it.each(cases)('%s', async (_name, path, body, status) => {
    const reply = await suite.client.post(path, body);
    expect(reply.status).toBe(status);
    expect(reply.body.success).toBe(false);
    expect(typeof reply.body.message).toBe('string');
    await unchanged();
  });

  it('names the problem: validateWrite messages and the malformed-JSON message', async () => {
    expect((await suite.client.post(P.add, {})).body.message).toBe('Class Name is required');
    expect((await suite.client.post(P.add, { className: 42 })).body.message).toBe('Class Name must be text');
    expect((await suite.client.post(P.add, '{')).body.message).toBe('Malformed JSON body');
    // A name over the limit is refused whole, never cut, and the reply says the limit.
    expect((await suite.client.post(P.add, { className: 'x'.repeat(256) })).body.message).toBe(
      'Class Name is too long: at most 255 characters',
    );
  });
});
