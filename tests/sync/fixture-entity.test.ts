/**
 * A newcomer's entity end to end, real server over HTTP and the app's own local store
 * and sync engine (fake-indexeddb): a Fixture Widget with a unique name (tests/helpers/fixture-entities.ts),
 * then the recipe "Adding a field or a parent" of ARCHITECTURE.md applied to it.
 *
 * 1. The unique name holds on the device (refused before queueing, at the field, in the
 *    server's words) and on the server (a duplicate the device could not see is refused with
 *    409): that change lands on the outbox as failed, is never sent again by itself, and an
 *    edit that corrects it goes through.
 * 2. Version 2 adds a required field (old rows get the column's default), a parent and a code
 *    unique within the parent: one migration, the new description, a local schema version.
 *    The device's rows pulled before it get the field at the next pull (the server re-sends
 *    the table: server/entities/row-shapes.ts), new rows carry it, the form's checks know it,
 *    and the unique rule within the parent holds on the device and on the server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../src/contract/entities';
import { formProblems } from '../../src/contract/validation';
import { LOCAL_SCHEMA_VERSION, LocalDb, type Stores, storesFor } from '../../src/db/database';
import { listProjections } from '../../src/db/list-index/projection';
import { mutate } from '../../src/db/mutate';
import { DuplicateError } from '../../src/db/mutations/refuse-duplicates';
import { pull } from '../../src/sync/pull/pull';
import { queueView } from '../../src/sync/queue-view';
import { replay, type SyncContext } from '../../src/sync/replay';
import {
  DEFAULT_MOTTO,
  FIXTURE_WIDGET_V1_MIGRATIONS,
  FIXTURE_WIDGET_V2_MIGRATIONS,
  fixtureWidgetV1,
  fixtureWidgetV2,
  registerFixtures,
  replaceFixture,
} from '../helpers/fixture-entities';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';
import { drain, syncClient } from '../helpers/sync-client';

registerFixtures(fixtureWidgetV1);

/** The next release's local store: the same data, the new entity tables' indexes (a new ref field). */
class UpgradedDb extends LocalDb {
  constructor(name: string, before: Stores, after: Stores) {
    super(name, before, listProjections(entities));
    this.version(LOCAL_SCHEMA_VERSION + 1).stores(after);
  }
}

let dataDir: string;
let server: TestServer;
let device: SyncContext & { db: LocalDb };
const opened: LocalDb[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fixture-entity-'));
  server = await startTestServer({
    dataDir,
    seedDemo: true,
    settings: { extraMigrations: FIXTURE_WIDGET_V1_MIGRATIONS },
  });
  device = await syncClient(server.apiRoot);
  opened.push(device.db);
});

afterAll(async () => {
  for (const db of opened) {
    db.close();
    await db.delete();
  }
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const widgetsOn = (db: LocalDb) => db.rows(fixtureWidgetV1).toArray();
/** Another administrator's client: plain requests to the server. */
const otherAdmin = async () => api(server.apiRoot, await signIn(server.apiRoot));
const addOnDevice = (db: LocalDb, values: Record<string, string>) =>
  mutate(db, { op: 'add', entity: entities.find((e) => e.name === 'fixtureWidget')!, values });

describe('a Fixture Widget with a unique name (version 1)', () => {
  it('a duplicate is refused on the device before queueing, at the field, in the server words', async () => {
    await addOnDevice(device.db, { widget_name: 'CBSE' });
    await addOnDevice(device.db, { widget_name: 'ICSE' });
    await drain(device);
    const refused = addOnDevice(device.db, { widget_name: ' CBSE ' });
    await expect(refused).rejects.toBeInstanceOf(DuplicateError);
    await expect(refused).rejects.toMatchObject({
      field: 'widget_name',
      message: 'Widget Name is already used by another fixture widget',
    });
    expect(await device.db.outbox.count()).toBe(0);
  });

  it('a duplicate the device could not see is refused by the server: failed once, never retried, then edited', async () => {
    const other = await otherAdmin();
    expect((await other.post(fixtureWidgetV1.api.add, { widgetName: 'State Widget' })).status).toBe(200);
    const { key } = await addOnDevice(device.db, { widget_name: 'State Widget' });

    await drain(device);
    const [entry] = await device.db.outbox.toArray();
    expect(entry).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Widget Name is already used by another fixture widget',
    });
    // Replay runs again and again (timer, focus, online): a refusal is left alone.
    for (let i = 0; i < 3; i++) await replay(device);
    expect(await device.db.outbox.get(entry.seq)).toMatchObject({ status: 'failed', attempts: 1 });
    const [item] = queueView(await device.db.outbox.toArray(), (id) => id, Date.now(), 'admin');
    expect(item).toMatchObject({ state: 'Failed', action: 'Add', failure: 'Failed to add fixture widget' });

    // Edit (the outbox's Edit opens the record's form): the corrected add goes under a new key.
    await mutate(device.db, {
      op: 'update',
      entity: fixtureWidgetV1,
      key,
      values: { widget_name: 'State Widget (West)' },
    });
    await drain(device);
    expect(await device.db.outbox.count()).toBe(0);
    await pull(device);
    expect((await widgetsOn(device.db)).map((b) => b.widget_name).sort()).toEqual([
      'CBSE',
      'ICSE',
      'State Widget',
      'State Widget (West)',
    ]);
  });
});

describe('version 2: a field and a parent added (the recipe)', () => {
  let upgraded: SyncContext & { db: LocalDb };

  beforeAll(async () => {
    const before = storesFor(entities);
    const name = device.db.name;
    device.db.close();
    // The release: the description and the migration, then server and app start again.
    replaceFixture(fixtureWidgetV1, fixtureWidgetV2);
    const port = server.port;
    await server.close();
    server = await startTestServer({
      dataDir,
      port,
      settings: { extraMigrations: FIXTURE_WIDGET_V2_MIGRATIONS },
    });
    opened.splice(opened.indexOf(device.db), 1);
    const db = new UpgradedDb(name, before, storesFor(entities));
    await db.open();
    opened.push(db);
    upgraded = { db, api: device.api };
  });

  it('rows pulled before the field existed get it at the next pull', async () => {
    const old = await widgetsOn(upgraded.db);
    expect(old).toHaveLength(4);
    expect(old.every((b) => !('motto' in b))).toBe(true);
    expect(await pull(upgraded)).toEqual({ ok: true });
    const pulled = await widgetsOn(upgraded.db);
    expect(pulled).toHaveLength(4);
    for (const b of pulled) expect(b).toMatchObject({ motto: DEFAULT_MOTTO, widget_code: '', class_id: '' });
  });

  it('new rows carry the field and the parent; the form checks the field as the server does', async () => {
    expect(formProblems(fixtureWidgetV2, 'add', { widget_name: 'IB', motto: '' })).toEqual([
      { field: 'motto', message: 'Motto is required', missing: true },
    ]);
    expect(formProblems(fixtureWidgetV2, 'add', { widget_name: 'IB', motto: 'x'.repeat(81) })).toEqual([
      { field: 'motto', message: 'Motto is too long: at most 80 characters', missing: false },
    ]);
    const refused = await (await otherAdmin()).post(fixtureWidgetV2.api.add, { widgetName: 'IB' });
    expect(refused).toMatchObject({ status: 400, body: { success: false, message: 'Motto is required' } });

    await addOnDevice(upgraded.db, { widget_name: 'IB', class_id: '1', widget_code: 'IB1', motto: 'Think' });
    await drain(upgraded);
    await pull(upgraded);
    const ib = (await widgetsOn(upgraded.db)).find((b) => b.widget_name === 'IB');
    expect(ib).toMatchObject({ class_id: '1', class_name: 'Class 1', widget_code: 'IB1', motto: 'Think' });
  });

  it('a code unique within its class holds on the device and on the server', async () => {
    const sameClass = addOnDevice(upgraded.db, {
      widget_name: 'IB Two',
      class_id: '1',
      widget_code: 'IB1',
      motto: 'Again',
    });
    await expect(sameClass).rejects.toMatchObject({
      field: 'widget_code',
      message: 'Widget Code is already used by another fixture widget in this class',
    });
    await addOnDevice(upgraded.db, {
      widget_name: 'IB Two',
      class_id: '2',
      widget_code: 'IB1',
      motto: 'Again',
    });
    await drain(upgraded);
    expect(await upgraded.db.outbox.count()).toBe(0);

    // A second device that never pulled: the server's unique index refuses, in the same words.
    const second = await syncClient(server.apiRoot);
    opened.push(second.db);
    await addOnDevice(second.db, { widget_name: 'IB Three', class_id: '1', widget_code: 'IB1', motto: 'M' });
    await drain(second);
    expect(await second.db.outbox.toArray()).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        lastError: 'Widget Code is already used by another fixture widget in this class',
      }),
    ]);
  });
});
