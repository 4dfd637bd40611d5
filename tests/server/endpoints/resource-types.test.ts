/**
 * Resource types (spec §7 "Resources and types"): one legacy path answering every call by its
 * `type` parameter, the id as `type_id`, other wire names on update than on insert, a fixed set
 * of entry-type codes, and no delete. Requests are written out as the spec's client sends them.
 */
import { describe, expect, it } from 'vitest';
import { api, signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const PATH = 'Resources/ResourceTypes/index.php';
const get = (type: string, query: Record<string, string | number> = {}) =>
  suite.client.get(PATH, { type, ...query });
const post = (type: string, body: unknown) => suite.client.post(`${PATH}?type=${type}`, body);

describe('Resources/ResourceTypes/index.php', () => {
  it('type=insert adds, fetch lists, fetchType and fetchEntryType read one', async () => {
    const added = await post('insert', { typeTitle: 'Lab Video', entryType: '1' });
    expect(added).toMatchObject({ status: 200, body: { success: true } });
    const id = added.body.id;

    const listed = await get('fetch');
    expect(listed.body.success).toBe(true);
    expect(listed.body.resource_types).toContainEqual(
      expect.objectContaining({ id, title: 'Lab Video', entry_type: 1 }),
    );

    expect((await get('fetchType', { type_id: id })).body).toMatchObject({
      success: true,
      resource_type: { id, title: 'Lab Video', entry_type: 1 },
    });
    expect((await get('fetchEntryType', { type_id: id })).body).toEqual({ success: true, entry_type: 1 });
  });

  it('type=update takes type_id, selectedEntryType and resourceTitle', async () => {
    const id = (await post('insert', { typeTitle: 'Notes', entryType: 5 })).body.id;
    const updated = await post('update', {
      type_id: String(id),
      selectedEntryType: '3',
      resourceTitle: 'Notes & Link',
    });
    expect(updated).toMatchObject({ status: 200, body: { success: true } });
    expect((await get('fetchType', { type_id: id })).body.resource_type).toMatchObject({
      title: 'Notes & Link',
      entry_type: 3,
    });
  });

  it('refuses an entry type outside 1-6 with a 400, not a database error', async () => {
    for (const entryType of ['7', 0, 'Link', 1.5]) {
      const reply = await post('insert', { typeTitle: 'Bad', entryType });
      expect(reply, String(entryType)).toMatchObject({
        status: 400,
        body: { success: false, message: 'Resource Entry Type must be one of 1, 2, 3, 4, 5, 6' },
      });
    }
    const update = await post('update', { type_id: 1, selectedEntryType: '9', resourceTitle: 'X' });
    expect(update.status).toBe(400);
    expect((await get('fetch')).body.resource_types.map((r: { title: string }) => r.title)).not.toContain(
      'Bad',
    );
  });

  it('refuses a type the path does not answer, and has no delete', async () => {
    expect(await get('nonsense')).toMatchObject({ status: 400, body: { success: false } });
    expect(await post('delete', { type_id: 1 })).toMatchObject({ status: 400, body: { success: false } });
    expect(await suite.client.get(PATH)).toMatchObject({ status: 400, body: { success: false } });
  });

  it('refuses unknown and malformed ids', async () => {
    expect(await get('fetchType', { type_id: 999999 })).toMatchObject({
      status: 404,
      body: { success: false },
    });
    expect(await get('fetchEntryType', { type_id: 'x' })).toMatchObject({
      status: 400,
      body: { success: false },
    });
    expect(
      await post('update', { type_id: 999999, selectedEntryType: '1', resourceTitle: 'Y' }),
    ).toMatchObject({
      status: 404,
    });
  });

  it('answers nothing without a session', async () => {
    const anonymous = api(suite.server.apiRoot);
    expect((await anonymous.get(PATH, { type: 'fetch' })).status).toBe(401);
    expect((await anonymous.post(`${PATH}?type=insert`, { typeTitle: 'X', entryType: 1 })).status).toBe(401);
  });
});
