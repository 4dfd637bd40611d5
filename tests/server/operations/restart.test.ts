/** Data survives a restart (on-disk PGlite, or the same PostgreSQL database); demo data is seeded once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity, subjectEntity } from '../../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

const P = classEntity.api;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
});
afterAll(() => server.close());

describe('restart', () => {
  it('keeps rows, deletions and the delta cursor, and does not seed again', async () => {
    let client = api(server.apiRoot, await signIn(server.apiRoot));
    expect((await client.get(P.list)).body.total).toBe(12);
    const { body: added } = await client.post(P.add, { className: 'Survivor' });
    // Classes 1 to 3 hold the demo tree; the others can go.
    for (let id = 4; id <= 12; id++) expect((await client.post(P.remove, { class_id: id })).status).toBe(200);
    const { cursor } = (await client.get(P.list, { since: 0 })).body;
    const port = server.port;

    await server.restart();
    expect(server.port).toBe(port);
    client = api(server.apiRoot, await signIn(server.apiRoot));
    const { body } = await client.get(P.list);
    // The demo classes stay deleted: only a brand-new database is seeded.
    expect(
      body.classes.map((c: { class_id: number; class_name: string }) => [c.class_id, c.class_name]),
    ).toEqual([
      [1, 'Class 1'],
      [2, 'Class 2'],
      [3, 'Class 3'],
      [added.id, 'Survivor'],
    ]);
    expect((await client.get(subjectEntity.api.list)).body.total).toBe(3);
    expect((await client.get(P.list, { since: cursor })).body).toMatchObject({
      classes: [],
      deleted: [],
      cursor,
    });
    // New ids continue after the old ones: serial state survived too.
    expect((await client.post(P.add, { className: 'After' })).body.id).toBeGreaterThan(added.id);
  });

  it('keeps sessions across a restart', async () => {
    const cookie = await signIn(server.apiRoot);
    await server.restart();
    expect((await api(server.apiRoot, cookie).get(P.list)).status).toBe(200);
  });
});
