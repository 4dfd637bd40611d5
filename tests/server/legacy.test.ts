/** legacy: true behaves like the plain PHP API, so the client's fallbacks can be tested. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

const P = classEntity.api;
let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ legacy: true, seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server.close());

describe('legacy mode', () => {
  it('sends no id in add replies', async () => {
    const { status, body } = await client.post(P.add, { className: 'Legacy add' });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: 'Class added successfully' });
  });

  it('ignores Idempotency-Key: a repeat adds again', async () => {
    const key = { 'Idempotency-Key': 'legacy-1' };
    await client.post(P.add, { className: 'Legacy twice' }, key);
    const second = await client.post(P.add, { className: 'Legacy twice' }, key);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    const { body } = await client.get(P.list, { search: 'Legacy twice' });
    expect(body.total).toBe(2);
  });

  it('ignores since: a plain full list without cursor or deletions', async () => {
    const { status, body } = await client.get(P.list, { since: 5 });
    expect(status).toBe(200);
    expect(body.cursor).toBeUndefined();
    expect(body.deleted).toBeUndefined();
    expect(body.classes.length).toBe(body.total);
    expect(body.total).toBeGreaterThanOrEqual(12);
  });
});
