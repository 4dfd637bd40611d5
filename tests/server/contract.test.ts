/**
 * The server answers every Classes endpoint with the reply the shared endpoint table
 * describes, so the client's parsing (src/contract/endpoints.ts) and the server agree.
 */

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityEndpoints, failureReply, parseReply } from '../../src/contract/endpoints';
import { classEntity } from '../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

const ep = entityEndpoints(classEntity);
let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

describe('replies match the shared endpoint table', () => {
  it('list: bare, paged and delta', async () => {
    const queries: Record<string, string | number>[] = [
      {},
      { search: '', page: 1, limit: 10, sortOption: '' },
      { since: 0 },
    ];
    for (const query of queries) {
      const reply = await client.get(ep.list.path, query);
      expect(parseReply(ep.list, reply.body), JSON.stringify(query)).not.toBeNull();
    }
  });

  it('add, get, update and delete', async () => {
    const added = await client.post(ep.add.path, { className: 'Contract' });
    expect(parseReply(ep.add, added.body)).not.toBeNull();
    const id = added.body.id;
    expect(parseReply(ep.get, (await client.get(ep.get.path, { class_id: id })).body)).not.toBeNull();
    const updated = await client.post(ep.update.path, {
      class_id: id,
      className: 'Contract 2',
      sortOrder: 0,
    });
    expect(parseReply(ep.update, updated.body)).not.toBeNull();
    expect(parseReply(ep.remove, (await client.post(ep.remove.path, { class_id: id })).body)).not.toBeNull();
  });

  it('failures carry success false and a message', async () => {
    const replies = [
      await client.post(ep.add.path, { className: '' }),
      await client.get(ep.get.path, { class_id: 999999 }),
      await api(server.apiRoot).get(ep.list.path),
    ];
    for (const reply of replies) {
      expect(v.safeParse(failureReply, reply.body).success).toBe(true);
      expect(reply.body.message).toEqual(expect.any(String));
      expect(parseReply(ep.list, reply.body)).toBeNull();
    }
  });
});
