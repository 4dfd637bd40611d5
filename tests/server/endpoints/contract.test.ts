/**
 * The server answers every endpoint of every described entity with the reply the shared
 * endpoint table describes, so the client's parsing (src/contract/endpoints.ts) and the
 * server agree. Bodies are built from the descriptions alone, parents before children, so a
 * new entity is covered as soon as it is listed.
 */

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allEndpoints,
  entityEndpoints,
  failureReply,
  listFieldOf,
  parseReply,
  rowOfGetReply,
} from '../../../src/contract/endpoints';
import { classEntity, entities } from '../../../src/contract/entities';
import { actionNotices, isValueAction } from '../../../src/contract/entity';
import { wireRequest } from '../../../src/contract/wire-request';
import { valueFor, valuesFor } from '../../helpers/entity-values';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

/** Ids of the rows this suite added, by entity name. */
const created = new Map<string, string>();

describe.each(entities.map((e) => [e.name, e] as const))(
  '%s replies match the endpoint table',
  (_name, entity) => {
    const ep = entityEndpoints(entity);

    it('add, get, list (bare, paged, delta), lookups, update and actions', async () => {
      // A single document has no id and may have no add (Terms); every other entity has both.
      let id = entity.single?.id ?? '';
      if (ep.add) {
        const added = await client.send(
          wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', 'contract', created) }),
        );
        expect(added.status, JSON.stringify(added.body)).toBe(200);
        expect(parseReply(ep.add, added.body)).not.toBeNull();
        if (!entity.single) id = String(added.body.id);
      }
      created.set(entity.name, id);

      let row: Record<string, unknown> = {};
      if (ep.get) {
        const got = await client.send(wireRequest(entity, { op: 'get', id }));
        expect(parseReply(ep.get, got.body)).not.toBeNull();
        row = rowOfGetReply(entity, got.body) as Record<string, unknown>;
      }

      const queries: Record<string, string | number>[] = ep.list
        ? [{}, { search: '', page: 1, limit: 10, sortOption: '' }, { since: 0 }]
        : [];
      for (const params of queries) {
        const reply = await client.send(wireRequest(entity, { op: 'list', params }));
        expect(parseReply(ep.list!, reply.body), JSON.stringify(params)).not.toBeNull();
      }

      // Each lookup, asked with the new row's own values, lists the new row.
      for (const lookup of ep.lookups) {
        const query = Object.fromEntries(lookup.fields.map((p) => [p, String(row[p] ?? '')]));
        const reply = await client.get(lookup.path, { ...lookup.query, ...query });
        expect(reply.body.success, lookup.path).toBe(true);
        expect(
          reply.body[listFieldOf(entity)].map((r: Record<string, unknown>) => String(r[entity.key])),
        ).toContain(id);
      }

      for (const [name, read] of Object.entries(entity.api.reads ?? {})) {
        const reply = await client.send(wireRequest(entity, { op: 'read', read: name, id }));
        expect(parseReply(ep.reads[name], reply.body), name).not.toBeNull();
        expect(String(reply.body[read.reply])).toBe(String(row[read.field]));
      }

      // Each set relation, replaced with the records this suite added, reads back as written.
      for (const [name, rel] of Object.entries(entity.relations ?? {})) {
        const ids = [created.get(rel.target)!];
        const written = await client.send(
          wireRequest(entity, { op: 'relation-write', relation: name, id, ids }),
        );
        expect(parseReply(ep.relations[name].write, written.body), name).not.toBeNull();
        const got = await client.send(wireRequest(entity, { op: 'relation-read', relation: name, id }));
        expect(parseReply(ep.relations[name].read, got.body), name).not.toBeNull();
        expect(got.body[rel.read.reply].map(String)).toEqual(ids);
      }

      if (ep.update) {
        const updated = await client.send(
          wireRequest(entity, { op: 'update', id, values: valuesFor(entity, 'update', 'updated', created) }),
        );
        expect(updated.status, JSON.stringify(updated.body)).toBe(200);
        expect(parseReply(ep.update, updated.body)).not.toBeNull();
      }

      for (const [name, action] of Object.entries(entity.actions ?? {})) {
        const value = isValueAction(action)
          ? valueFor(entity.fields[action.field], 'action', created)
          : Object.keys(action.messages)[0];
        const reply = await client.send(wireRequest(entity, { op: 'action', action: name, id, value }));
        expect(reply.body).toEqual({ success: true, message: actionNotices(action, value)?.[0] });
      }

      // Further get endpoints answer as get does (fetchbookdetails.php for a book).
      for (const also of ep.alsoGet) {
        const reply = await client.get(also.path, { [also.idParam!]: id });
        expect(parseReply(also, reply.body), also.path).not.toBeNull();
        const now = await client.send(wireRequest(entity, { op: 'get', id }));
        expect(rowOfGetReply(entity, reply.body)).toEqual(rowOfGetReply(entity, now.body));
      }
    });
  },
);

describe('delete replies, children before parents', () => {
  it('remove', async () => {
    for (const entity of [...entities].reverse()) {
      const ep = entityEndpoints(entity);
      if (!ep.remove) continue;
      const reply = await client.send(wireRequest(entity, { op: 'remove', id: created.get(entity.name) }));
      expect(parseReply(ep.remove, reply.body), entity.name).not.toBeNull();
    }
  });
});

describe('failures', () => {
  it('carry success false and a message', async () => {
    const ep = entityEndpoints(classEntity);
    const replies = [
      await client.post(ep.add!.path, { className: '' }),
      await client.get(ep.get!.path, { class_id: 999999 }),
      await api(server.apiRoot).get(ep.list!.path),
    ];
    for (const reply of replies) {
      expect(v.safeParse(failureReply, reply.body).success).toBe(true);
      expect(reply.body.message).toEqual(expect.any(String));
      expect(parseReply(ep.list!, reply.body)).toBeNull();
    }
  });

  it('every endpoint of every entity refuses a request without a session', async () => {
    const anonymous = api(server.apiRoot);
    for (const entity of entities) {
      for (const ep of allEndpoints(entity)) {
        const id = { [ep.idParam ?? entity.key]: 1 };
        const reply =
          ep.method === 'GET'
            ? await anonymous.get(ep.path, { ...ep.query, ...id })
            : await anonymous.send({
                method: 'POST',
                path: ep.path,
                query: { ...ep.query },
                encoding: 'json',
                body: id,
              });
        expect(reply, `${ep.method} ${ep.path}`).toMatchObject({ status: 401, body: { success: false } });
      }
    }
  });
});
