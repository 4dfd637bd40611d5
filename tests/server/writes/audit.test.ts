/**
 * The audit trail: every applied write of every described entity leaves exactly one
 * entry with who, which device, when on the device and on the server, and what changed (secrets
 * hidden, files by name); a replayed, refused or rolled-back write leaves none; a batch leaves
 * one per applied item. `GET audit` filters and pages newest first (keyset `before` beside
 * `page`), old entries are pruned, and it needs a session (legacy mode: legacy.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAudit } from '../../../server/audit/store';
import {
  AUDIT_PATH,
  auditEntityName,
  DEVICE_HEADER,
  HIDDEN_VALUE,
  MADE_AT_HEADER,
} from '../../../src/contract/audit/audit-trail';
import { BATCH_PATH } from '../../../src/contract/batch';
import { entityEndpoints } from '../../../src/contract/endpoints';
import { classEntity, entities } from '../../../src/contract/entities';
import { type EntityDescription, isValueAction } from '../../../src/contract/entity';
import { wireRequest } from '../../../src/contract/wire-request';
import { valueFor, valuesFor } from '../../helpers/entity-values';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { form, sampleFile } from '../support/files';

let server: TestServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
});
afterAll(() => server?.close());

const DEVICE = 'tablet-7f3a';
/** An hour ago, as a device that was offline would say. */
const MADE_AT = new Date(Date.now() - 3_600_000).toISOString();
const origin = { [MADE_AT_HEADER]: MADE_AT, [DEVICE_HEADER]: DEVICE };

interface Row {
  id: number;
  at: Date;
  made_at: Date | null;
  admin: string | null;
  device: string | null;
  entity: string;
  record_id: string;
  op: string;
  changes: Record<string, [unknown, unknown]>;
}

let seen = 0;
/** The entries written since the last call. */
async function newEntries(): Promise<Row[]> {
  const rows = await server.query<Row>('SELECT * FROM audit_log WHERE id > $1 ORDER BY id', [seen]);
  seen = Math.max(seen, ...rows.map((r) => Number(r.id)));
  return rows;
}

/** The one entry a write left, checked for who, where and when. */
async function oneEntry(entity: EntityDescription, op: string, recordId?: string): Promise<Row> {
  const rows = await newEntries();
  expect(
    rows.map((r) => [r.entity, r.op]),
    entity.name,
  ).toEqual([[auditEntityName(entity), op]]);
  const [row] = rows;
  if (recordId !== undefined) expect(row.record_id).toBe(recordId);
  expect(row).toMatchObject({ admin: 'admin', device: DEVICE });
  expect(new Date(row.made_at!).toISOString()).toBe(MADE_AT);
  expect(Date.now() - new Date(row.at).getTime()).toBeLessThan(10 * 60_000);
  return row;
}

/**
 * A single document's write adds it when there is none yet (whichever endpoint it came
 * through) and updates it otherwise: the entry says what happened to the record.
 */
async function addOrUpdate(entity: EntityDescription, op: 'add' | 'update'): Promise<string> {
  if (!entity.single) return op;
  return (await server.query(`SELECT 1 FROM ${entity.table}`)).length > 0 ? 'update' : 'add';
}

describe('every write of every entity', () => {
  it('leaves exactly one entry: add (or upload), assign, update, toggle, delete', async () => {
    await newEntries();
    const created = new Map<string, string>();
    for (const entity of entities) {
      const ep = entityEndpoints(entity);
      let id = entity.single?.id ?? '';
      if (ep.add) {
        const op = entity.name === 'contentImage' ? 'upload' : await addOrUpdate(entity, 'add');
        const values = valuesFor(entity, 'add', 'audit', created);
        const reply = await client.send(wireRequest(entity, { op: 'add', values }), origin);
        expect(reply.status, `${entity.name}: ${JSON.stringify(reply.body)}`).toBe(200);
        if (!entity.single) id = String(reply.body.id);
        const row = await oneEntry(entity, op, entity.single ? undefined : id);
        expect(Object.keys(row.changes).length, entity.name).toBeGreaterThan(0);
        if (op !== 'update') for (const [old] of Object.values(row.changes)) expect(old).toBeNull();
      }
      created.set(entity.name, id);
      for (const [name, rel] of Object.entries(entity.relations ?? {})) {
        const ids = [created.get(rel.target)!];
        await client.send(wireRequest(entity, { op: 'relation-write', relation: name, id, ids }), origin);
        const row = await oneEntry(entity, 'assign', id);
        expect(row.changes).toEqual({ [name]: [[], ids.map(Number)] });
      }
      if (ep.update) {
        const op = await addOrUpdate(entity, 'update');
        const values = valuesFor(entity, 'update', 'changed', created);
        const reply = await client.send(wireRequest(entity, { op: 'update', id, values }), origin);
        expect(reply.status, `${entity.name}: ${JSON.stringify(reply.body)}`).toBe(200);
        const row = await oneEntry(entity, op, entity.single ? undefined : id);
        expect(Object.keys(row.changes).length, entity.name).toBeGreaterThan(0);
      }
      for (const [name, action] of Object.entries(entity.actions ?? {})) {
        const value = isValueAction(action)
          ? valueFor(entity.fields[action.field], 'action', created)
          : Object.keys(action.messages).at(-1)!;
        await client.send(wireRequest(entity, { op: 'action', action: name, id, value }), origin);
        const row = await oneEntry(entity, isValueAction(action) ? 'update' : 'toggle', id);
        expect(Object.keys(row.changes).every((f) => f === action.field)).toBe(true);
      }
    }
    for (const entity of [...entities].reverse()) {
      if (!entityEndpoints(entity).remove) continue;
      const id = created.get(entity.name)!;
      const reply = await client.send(wireRequest(entity, { op: 'remove', id }), origin);
      expect(reply.status, entity.name).toBe(200);
      const row = await oneEntry(entity, 'delete', id);
      for (const [, now] of Object.values(row.changes)) expect(now).toBeNull();
    }
  });
});

describe('what an entry says', () => {
  it('hides passwords, names files, and lists only the fields an update changed', async () => {
    await newEntries();
    const logo = sampleFile('png', 'logo.png', 300);
    const added = await client.post(
      'Users/Schools/addschools.php',
      form({
        schoolName: 'Audit School',
        schoolAddress: '1 Ledger Lane',
        password: 'first-secret',
        email: 'audit@school.example',
        contactNumber: '9876543210',
        country: 'IN',
        state: 'MH',
        city: 'Mumbai',
        profilePic: logo,
      }),
    );
    const id = String(added.body.id);
    const [stored] = await server.query<{ school_logo: string; password: string }>(
      'SELECT school_logo, password FROM schools WHERE school_id = $1',
      [id],
    );
    const [add] = await newEntries();
    expect(add.changes.password).toEqual([null, HIDDEN_VALUE]);
    expect(add.changes.school_logo).toEqual([null, stored.school_logo]);
    // Beside the stored name, the one the file had on the device (the trail shows both).
    expect(add.changes.school_logo_name).toEqual([null, 'logo.png']);
    expect(add.changes.school_name).toEqual([null, 'Audit School']);
    expect(JSON.stringify(add.changes)).not.toContain(stored.password);
    // The original front-end sends neither the device nor the time.
    expect(add).toMatchObject({ device: null, made_at: null, record_id: id, entity: 'schools' });

    const update = (extra: Record<string, string | File>) =>
      client.post(
        `Users/Schools/updateschools.php?school_id=${id}`,
        form({
          schoolName: 'Audit School',
          schoolAddress: '2 Ledger Lane',
          email: 'audit@school.example',
          contactNumber: '9876543210',
          country: 'IN',
          state: 'MH',
          city: 'Mumbai',
          ...extra,
        }),
      );
    expect((await update({ password: '' })).status).toBe(200);
    const [kept] = await newEntries();
    expect(kept.changes).toEqual({ school_address: ['1 Ledger Lane', '2 Ledger Lane'] });

    expect(
      (await update({ password: 'second-secret', profilePic: sampleFile('png', 'new.png', 400) })).status,
    ).toBe(200);
    const [changed] = await newEntries();
    const [now] = await server.query<{ school_logo: string }>(
      'SELECT school_logo FROM schools WHERE school_id = $1',
      [id],
    );
    expect(changed.changes).toEqual({
      password: [HIDDEN_VALUE, HIDDEN_VALUE],
      school_logo: [stored.school_logo, now.school_logo],
      school_logo_name: ['logo.png', 'new.png'],
    });
  });

  it('takes epoch milliseconds for the device time and ignores what is not a sane time', async () => {
    await newEntries();
    const add = (name: string, headers: Record<string, string>) =>
      client.post(classEntity.api.add!, { className: name }, headers);
    const epoch = Date.now() - 60_000;
    await add('Audit epoch', { [MADE_AT_HEADER]: String(epoch), [DEVICE_HEADER]: DEVICE });
    await add('Audit garbage', { [MADE_AT_HEADER]: 'yesterday', [DEVICE_HEADER]: 'not a device id!' });
    await add('Audit future', { [MADE_AT_HEADER]: '2999-01-01T00:00:00Z' });
    const rows = await newEntries();
    expect(rows.map((r) => (r.made_at === null ? null : new Date(r.made_at).getTime()))).toEqual([
      epoch,
      null,
      null,
    ]);
    expect(rows.map((r) => r.device)).toEqual([DEVICE, null, null]);
  });
});

describe('writes that apply nothing record nothing', () => {
  it('a replay under the same key, a refusal, a 409, and a batch item that fails', async () => {
    await newEntries();
    const key = { 'Idempotency-Key': 'audit-replay-1', ...origin };
    const first = await client.post(classEntity.api.add!, { className: 'Audit replay' }, key);
    const again = await client.post(classEntity.api.add!, { className: 'Audit replay' }, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await oneEntry(classEntity, 'add', String(first.body.id));

    expect((await client.post(classEntity.api.add!, { className: '' })).status).toBe(400);
    // A class that series still belong to cannot be deleted (the demo data's first class).
    expect((await client.post(classEntity.api.remove!, { class_id: 1 })).status).toBe(409);
    expect(await newEntries()).toEqual([]);

    const item = (name: string, madeAt: string | number, k: string) => ({
      method: 'POST',
      path: classEntity.api.add,
      key: k,
      json: { className: name },
      madeAt,
    });
    const earlier = Date.now() - 120_000;
    const requests = [
      item('Audit batch A', earlier, 'audit-batch-a'),
      item('', MADE_AT, 'audit-batch-refused'),
      item('Audit batch B', MADE_AT, 'audit-batch-b'),
    ];
    const batch = await client.post(BATCH_PATH, { requests }, { [DEVICE_HEADER]: DEVICE });
    expect(batch.body.replies.map((r: { status: number }) => r.status)).toEqual([200, 400, 200]);
    const rows = await newEntries();
    expect(rows.map((r) => [r.changes.class_name?.[1], new Date(r.made_at!).getTime(), r.device])).toEqual([
      ['Audit batch A', earlier, DEVICE],
      ['Audit batch B', Date.parse(MADE_AT), DEVICE],
    ]);
    // The same batch again (its reply lost): answered from the stored replies, nothing recorded.
    await client.post(BATCH_PATH, { requests }, { [DEVICE_HEADER]: DEVICE });
    expect(await newEntries()).toEqual([]);
  });
});

describe('GET audit', () => {
  it('filters by entity, record, administrator and time, newest first, as the API names them', async () => {
    const added = await client.post(classEntity.api.add!, { className: 'Audit history' }, origin);
    const id = String(added.body.id);
    await client.post(
      classEntity.api.update!,
      { class_id: id, className: 'Audit history 2', sortOrder: 3 },
      origin,
    );
    const { body } = await client.get(AUDIT_PATH, { entity: 'classes', id });
    expect(body.success).toBe(true);
    expect(body.total).toBe(2);
    expect(body.data).toEqual([
      {
        id: expect.any(String),
        at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        madeAt: MADE_AT,
        admin: 'admin',
        device: DEVICE,
        entity: 'classes',
        recordId: id,
        op: 'update',
        changes: { class_name: ['Audit history', 'Audit history 2'], sort_order: [0, 3] },
      },
      expect.objectContaining({ op: 'add', recordId: id, changes: expect.objectContaining({}) }),
    ]);
    expect(Number(body.data[0].id)).toBeGreaterThan(Number(body.data[1].id));

    const total = async (query: Record<string, string>) => (await client.get(AUDIT_PATH, query)).body.total;
    const all = await total({});
    expect(await total({ admin: 'admin' })).toBe(all);
    expect(await total({ admin: 'nobody' })).toBe(0);
    expect(await total({ entity: 'schools' })).toBeGreaterThan(0);
    expect(await total({ entity: 'classes' })).toBeLessThan(all);
    expect(await total({ to: '2001-01-01' })).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await total({ from: today, to: today })).toBe(all);
    expect(await total({ from: new Date(Date.now() + 3_600_000).toISOString() })).toBe(0);
  });

  it('pages by keyset: `next` continues with no gap and no repeat; `page` counts from `before`', async () => {
    for (const n of [1, 2, 3, 4, 5])
      await client.post(classEntity.api.add!, { className: `Audit page ${n}` });
    const { body: whole } = await client.get(AUDIT_PATH, { entity: 'classes', limit: 100 });
    const ids = whole.data.map((e: { id: string }) => e.id);
    expect(ids.length).toBeGreaterThan(6);
    const walked: string[] = [];
    let before: string | null = null;
    do {
      const query: Record<string, string | number> = {
        entity: 'classes',
        limit: 3,
        ...(before ? { before } : {}),
      };
      const { body } = await client.get(AUDIT_PATH, query);
      expect(body.total).toBe(whole.total);
      walked.push(...body.data.map((e: { id: string }) => e.id));
      before = body.next;
    } while (before !== null);
    expect(walked).toEqual(ids);

    // A screen keeps one snapshot and moves page: entries added meanwhile shift nothing.
    const snapshot = String(Number(ids[0]) + 1);
    await client.post(classEntity.api.add!, { className: 'Audit page later' });
    const second = await client.get(AUDIT_PATH, { entity: 'classes', limit: 3, before: snapshot, page: 2 });
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(3, 6));
  });

  it('refuses what it cannot answer with a 400', async () => {
    const queries: Record<string, string | number>[] = [
      { limit: 0 },
      { limit: 101 },
      { page: 'x' },
      { before: '-1' },
      { from: 'last week' },
    ];
    for (const query of queries) {
      const reply = await client.get(AUDIT_PATH, query);
      expect(reply.status, JSON.stringify(query)).toBe(400);
      expect(reply.body).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('needs a session', async () => {
    const reply = await api(server.apiRoot).get(AUDIT_PATH);
    expect(reply).toMatchObject({ status: 401, body: { success: false } });
  });
});

describe('retention', () => {
  it('prunes entries older than the window and keeps the rest', async () => {
    await server.query(
      `INSERT INTO audit_log (at, entity, record_id, op) VALUES (now() - interval '800 days', 'classes', '1', 'update')`,
    );
    const [{ before }] = await server.query<{ before: number }>('SELECT count(*) AS before FROM audit_log');
    expect(await pruneAudit((sql, params) => server.query(sql, params && [...params]), 730)).toBe(1);
    const [{ after }] = await server.query<{ after: number }>('SELECT count(*) AS after FROM audit_log');
    expect(Number(after)).toBe(Number(before) - 1);
  });
});
