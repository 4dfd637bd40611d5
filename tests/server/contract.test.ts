/**
 * The server answers every endpoint of every described entity with the reply the shared
 * endpoint table describes, so the client's parsing (src/contract/endpoints.ts) and the
 * server agree. Bodies are built from the descriptions alone, parents before children, so a
 * new entity is covered as soon as it is listed.
 */

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityEndpoints, failureReply, parseReply } from '../../src/contract/endpoints';
import { classEntity, entities } from '../../src/contract/entities';
import { type EntityDescription, type Op, wireFields } from '../../src/contract/entity';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

/** Ids of the rows this suite added, by entity name. */
const created = new Map<string, number>();

/** A valid add or update body: refs name the rows added before, texts say what they are. */
function bodyFor(entity: EntityDescription, op: Op, tag: string): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  for (const [, spec] of wireFields(entity, op)) {
    if (spec.kind === 'file') continue;
    if (spec.kind === 'ref') body[spec.wire] = created.get(spec.ref!)!;
    else if (spec.kind === 'number') body[spec.wire] = 1;
    else if (spec.kind === 'url') body[spec.wire] = `https://example.org/${tag}`;
    else body[spec.wire] = `${spec.label} ${tag}`;
  }
  return body;
}

/** JSON or multipart, as the entity's encoding says. */
function encode(entity: EntityDescription, body: Record<string, string | number>): unknown {
  if (entity.api.encoding === 'json') return body;
  const form = new FormData();
  for (const [k, val] of Object.entries(body)) form.set(k, String(val));
  return form;
}

describe.each(entities.map((e) => [e.name, e] as const))(
  '%s replies match the endpoint table',
  (_name, entity) => {
    const ep = entityEndpoints(entity);

    it('add, get, list (bare, paged, delta), lookups, update and actions', async () => {
      const added = await client.post(ep.add.path, encode(entity, bodyFor(entity, 'add', 'contract')));
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(parseReply(ep.add, added.body)).not.toBeNull();
      const id = added.body.id as number;
      created.set(entity.name, id);

      const got = await client.get(ep.get.path, { [entity.key]: id });
      expect(parseReply(ep.get, got.body)).not.toBeNull();
      const row = got.body[entity.api.getField];

      const queries: Record<string, string | number>[] = [
        {},
        { search: '', page: 1, limit: 10, sortOption: '' },
        { since: 0 },
      ];
      for (const query of queries) {
        const reply = await client.get(ep.list.path, query);
        expect(parseReply(ep.list, reply.body), JSON.stringify(query)).not.toBeNull();
      }

      // Each lookup, asked with the new row's own values, lists the new row.
      for (const lookup of entity.lookups ?? []) {
        const query = Object.fromEntries(lookup.params.map((p) => [p, row[p] ?? '']));
        const reply = await client.get(lookup.path, query);
        expect(reply.body.success, lookup.path).toBe(true);
        expect(reply.body[entity.api.listField].map((r: Record<string, unknown>) => r[entity.key])).toContain(
          id,
        );
      }

      const update = bodyFor(entity, 'update', 'updated');
      const path = ep.update.idIn === 'query' ? `${ep.update.path}?${entity.key}=${id}` : ep.update.path;
      if (ep.update.idIn === 'body') update[entity.key] = id;
      const updated = await client.post(path, encode(entity, update));
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(parseReply(ep.update, updated.body)).not.toBeNull();

      for (const action of Object.values(entity.actions ?? {})) {
        const value = Object.keys(action.messages)[0];
        const reply = await client.post(action.path, { [entity.key]: id, [action.wire]: value });
        expect(reply.body).toEqual({ success: true, message: action.messages[value][0] });
      }
    });
  },
);

describe('delete replies, children before parents', () => {
  it('remove', async () => {
    for (const entity of [...entities].reverse()) {
      const ep = entityEndpoints(entity);
      const reply = await client.post(ep.remove.path, { [entity.key]: created.get(entity.name) });
      expect(parseReply(ep.remove, reply.body), entity.name).not.toBeNull();
    }
  });
});

describe('failures', () => {
  it('carry success false and a message', async () => {
    const ep = entityEndpoints(classEntity);
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

  it('every endpoint of every entity refuses a request without a session', async () => {
    const anonymous = api(server.apiRoot);
    for (const entity of entities) {
      const ep = entityEndpoints(entity);
      const gets = [ep.list.path, ep.get.path, ...ep.lookups.map((l) => l.path)];
      const posts = [
        ep.add.path,
        ep.update.path,
        ep.remove.path,
        ...Object.values(ep.actions).map((a) => a.path),
      ];
      for (const path of gets) {
        expect(await anonymous.get(path, { [entity.key]: 1 }), path).toMatchObject({
          status: 401,
          body: { success: false },
        });
      }
      for (const path of posts) {
        expect(await anonymous.post(path, { [entity.key]: 1 }), path).toMatchObject({
          status: 401,
          body: { success: false },
        });
      }
    }
  });
});
