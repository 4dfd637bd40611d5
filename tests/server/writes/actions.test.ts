/** Field actions (`entity.actions`): the books' popular flag through togglePopular.php. */
import { describe, expect, it } from 'vitest';
import { bookEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });

const popular = bookEntity.actions.popular;
const status = async (id: number) =>
  (await suite.client.get(bookEntity.api.get, { book_id: id })).body.book.status;

describe('togglePopular.php', () => {
  it('sets the new value and answers with its notice', async () => {
    expect(await status(2)).toBe('Disabled');
    const on = await suite.client.post(popular.path, { book_id: 2, status: 'Enabled' });
    expect(on).toMatchObject({ status: 200, body: { success: true, message: 'Book enabled successfully' } });
    expect(await status(2)).toBe('Enabled');
    const off = await suite.client.post(popular.path, { book_id: '2', status: 'Disabled' });
    expect(off.body).toEqual({ success: true, message: 'Book disabled successfully' });
    expect(await status(2)).toBe('Disabled');
  });

  it('shows in the delta pull as a changed row', async () => {
    const { cursor } = (await suite.client.get(bookEntity.api.list, { since: 0 })).body;
    await suite.client.post(popular.path, { book_id: 3, status: 'Enabled' });
    const delta = (await suite.client.get(bookEntity.api.list, { since: cursor })).body;
    expect(delta.books).toMatchObject([{ book_id: 3, status: 'Enabled', series_name: 'Sunrise English' }]);
  });

  it('refuses other values, unknown and malformed ids, and changes nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{ book_id: 4, status: 'enabled' }, 400, 'Status must be Enabled or Disabled'],
      [{ book_id: 4, status: 'Popular' }, 400, 'Status must be Enabled or Disabled'],
      [{ book_id: 4, status: true }, 400, 'Status must be Enabled or Disabled'],
      [{ book_id: 4 }, 400, 'Status must be Enabled or Disabled'],
      [{ book_id: 999, status: 'Enabled' }, 404, 'Book not found'],
      [{ book_id: 'x', status: 'Enabled' }, 400, 'Invalid book_id'],
      [{ status: 'Enabled' }, 400, 'Invalid book_id'],
    ];
    for (const [body, code, message] of cases) {
      expect(await suite.client.post(popular.path, body)).toMatchObject({
        status: code,
        body: { success: false, message },
      });
    }
    expect(await status(4)).toBe('Disabled');
  });

  it('replays with the same Idempotency-Key without applying it again', async () => {
    const key = { 'Idempotency-Key': 'popular-5' };
    const first = await suite.client.post(popular.path, { book_id: 5, status: 'Enabled' }, key);
    await suite.client.post(popular.path, { book_id: 5, status: 'Disabled' });
    const replay = await suite.client.post(popular.path, { book_id: 5, status: 'Enabled' }, key);
    expect(replay).toMatchObject({ status: 200, body: first.body });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    // The replay did not set Enabled again over the later change.
    expect(await status(5)).toBe('Disabled');
  });
});
