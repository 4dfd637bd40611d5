/**
 * The server refuses every write outside the administrator's role (src/contract/accounts/
 * roles.ts), before anything is written: every write endpoint of every described entity (add,
 * update, delete, actions, set relations, single documents), as every role, alone and as a
 * batch item. Requests are built from the descriptions, as in endpoints/contract.test.ts, so
 * a new entity is covered as soon as it is listed.
 *
 * An allowed role works on a record of its own (added by its own add, removed at the end);
 * a refused role aims at the Owner's record, which must come out of it untouched: no row, no
 * change tracking, no audit entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotChange, mayChange, ROLES, type Role } from '../../../src/contract/accounts/roles';
import { BATCH_PATH, type BatchItem } from '../../../src/contract/batch';
import { entityEndpoints } from '../../../src/contract/endpoints';
import { classEntity, entities, schoolEntity } from '../../../src/contract/entities';
import { type EntityDescription, isValueAction } from '../../../src/contract/entity';
import { RESUMABLE_PATH } from '../../../src/contract/resumable';
import { type WireRequest, wireRequest } from '../../../src/contract/wire-request';
import { valueFor, valuesFor } from '../../helpers/entity-values';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { signedInAs } from './accounts';

type Client = ReturnType<typeof api>;
type Mode = 'alone' | 'batch';

let server: TestServer;
let owner: Client;
const clients = new Map<Role, Client>();
/** The Owner's record of each entity (parents first), aimed at by the refused roles. */
const created = new Map<string, string>();

beforeAll(async () => {
  server = await startTestServer();
  owner = api(server.apiRoot, await signIn(server.apiRoot));
  clients.set('Owner', owner);
  for (const role of ROLES.filter((r) => r !== 'Owner'))
    clients.set(
      role,
      api(server.apiRoot, await signedInAs(server.apiRoot, owner, role.replace(' ', '.'), role)),
    );
  for (const entity of entities) {
    const id = entity.single?.id ?? '';
    if (entityEndpoints(entity).add) {
      const added = await owner.send(
        wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', 'owner', created) }),
      );
      expect(added.status, `${entity.name}: ${JSON.stringify(added.body)}`).toBe(200);
      created.set(entity.name, entity.single ? id : String(added.body.id));
    } else created.set(entity.name, id);
  }
}, 120_000);
afterAll(() => server?.close());

/** What a refused write must leave as it was: the change tracking, the audit trail, the rows. */
async function traces(entity: EntityDescription) {
  const [row] = await server.query<{ rev: number; audit: number; rows: number }>(
    `SELECT (SELECT last_value FROM change_seq)::int AS rev, (SELECT count(*) FROM audit_log)::int AS audit,
            (SELECT count(*) FROM ${entity.table})::int AS rows`,
  );
  return row;
}

/** A request as a batch item, or null when it cannot travel in one (it carries a file). */
function batchItem(request: WireRequest): BatchItem | null {
  const values = Object.entries(request.body ?? {});
  if (values.some(([, value]) => value instanceof Blob)) return null;
  const common = { method: request.method, path: request.path, query: request.query };
  if (request.encoding === 'json') return { ...common, json: request.body ?? {} };
  const text = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
  return { ...common, form: values.map(([name, value]) => [name, text(value)] as [string, string]) };
}

/** Sends `request` alone or as the one item of a batch: the item's status and body. */
async function send(client: Client, request: WireRequest, mode: Mode) {
  if (mode === 'alone') return client.send(request);
  const item = batchItem(request);
  if (!item) return null;
  const reply = await client.post(BATCH_PATH, { requests: [item] });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.replies[0] as { status: number; body: Record<string, unknown> };
}

/** Every write request of `entity` on record `id`, in an order that ends with its removal. */
function writes(entity: EntityDescription, id: string, tag: string): [string, WireRequest][] {
  const out: [string, WireRequest][] = [];
  const ep = entityEndpoints(entity);
  if (ep.update)
    out.push([
      'update',
      wireRequest(entity, { op: 'update', id, values: valuesFor(entity, 'update', tag, created) }),
    ]);
  for (const [name, action] of Object.entries(entity.actions ?? {})) {
    const value = isValueAction(action)
      ? valueFor(entity.fields[action.field], 'action', created)
      : Object.keys(action.messages)[0];
    out.push([`action ${name}`, wireRequest(entity, { op: 'action', action: name, id, value })]);
  }
  for (const [name, rel] of Object.entries(entity.relations ?? {}))
    out.push([
      `relation ${name}`,
      wireRequest(entity, { op: 'relation-write', relation: name, id, ids: [created.get(rel.target)!] }),
    ]);
  if (ep.remove) out.push(['remove', wireRequest(entity, { op: 'remove', id })]);
  return out;
}

/** Whether the entity has an add endpoint (Terms has none). */
const hasAdd = (entity: EntityDescription) => entityEndpoints(entity).add !== undefined;

/** Values of each role and mode differ (unique e-mails), and stay short (a zip code holds 20). */
const tagOf = (role: Role, mode: Mode) => `${role[0]}-${mode}`.toLowerCase();

async function refused(role: Role, entity: EntityDescription, mode: Mode) {
  const client = clients.get(role)!;
  const id = created.get(entity.name)!;
  const tag = tagOf(role, mode);
  const requests: [string, WireRequest][] = hasAdd(entity)
    ? [['add', wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', tag, created) })]]
    : [];
  requests.push(...writes(entity, id, tag));
  for (const [what, request] of requests) {
    const before = await traces(entity);
    const reply = await send(client, request, mode);
    if (!reply) continue;
    expect(reply, `${role} ${mode}: ${entity.name} ${what}`).toMatchObject({
      status: 403,
      body: { success: false, message: cannotChange(role, entity) },
    });
    expect(await traces(entity), `${role} ${mode}: ${entity.name} ${what} wrote`).toEqual(before);
  }
}

async function allowed(role: Role, entity: EntityDescription, mode: Mode) {
  const client = clients.get(role)!;
  const tag = tagOf(role, mode);
  let id = created.get(entity.name)!;
  if (hasAdd(entity) && !entity.single) {
    const request = wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', tag, created) });
    const reply = await send(client, request, mode);
    // A record with a file cannot travel in a batch: the Owner's record stands in.
    if (reply) {
      expect(reply.status, `${role} ${mode}: ${entity.name} add ${JSON.stringify(reply.body)}`).toBe(200);
      id = String(reply.body.id);
    }
  }
  for (const [what, request] of writes(entity, id, tag)) {
    if (what === 'remove' && id === created.get(entity.name)) continue;
    const reply = await send(client, request, mode);
    if (!reply) continue;
    expect(reply.status, `${role} ${mode}: ${entity.name} ${what} ${JSON.stringify(reply.body)}`).toBe(200);
  }
}

describe.each(ROLES.flatMap((role) => (['alone', 'batch'] as const).map((mode) => [role, mode] as const)))(
  'as %s, %s',
  (role, mode) => {
    it.each(entities.map((e) => [e.name, e] as const))('%s', async (_name, entity) => {
      if (mayChange(role, entity)) await allowed(role, entity, mode);
      else await refused(role, entity, mode);
    });
  },
);

describe('a batch', () => {
  it('refuses the items outside the role and runs the others', async () => {
    const editor = clients.get('Editor')!;
    const items = [
      batchItem(wireRequest(classEntity, { op: 'add', values: { class_name: 'Mixed batch class' } })),
      batchItem(
        wireRequest(schoolEntity, { op: 'add', values: valuesFor(schoolEntity, 'add', 'mixed', created) }),
      ),
    ];
    const reply = await editor.post(BATCH_PATH, { requests: items });
    expect(reply.body.replies.map((r: { status: number }) => r.status)).toEqual([200, 403]);
    expect(reply.body.replies[1].body.message).toBe(cannotChange('Editor', schoolEntity));
    const [row] = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM classes WHERE class_name = 'Mixed batch class'",
    );
    expect(row.n).toBe(1);
  });

  it('keeps a refusal under its key: a repeat gets it again, replayed', async () => {
    const viewer = clients.get('Viewer')!;
    const item = {
      ...batchItem(wireRequest(classEntity, { op: 'add', values: { class_name: 'Refused twice' } }))!,
      key: 'role-refusal-key-1',
    };
    const first = await viewer.post(BATCH_PATH, { requests: [item] });
    const again = await viewer.post(BATCH_PATH, { requests: [item] });
    expect(first.body.replies[0]).toMatchObject({ status: 403, replayed: false });
    expect(again.body.replies[0]).toEqual({ ...first.body.replies[0], replayed: true });
  });
});

describe('resumable uploads', () => {
  const create = (client: Client) =>
    client.post(RESUMABLE_PATH, undefined, {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '10',
      'Upload-Metadata': `filename ${btoa('a.png')}`,
    });

  it('are not started by a Viewer, and are by every role that may change something', async () => {
    expect((await create(clients.get('Viewer')!)).status).toBe(403);
    for (const role of ROLES.filter((r) => r !== 'Viewer'))
      expect((await create(clients.get(role)!)).status).toBe(201);
  });
});
