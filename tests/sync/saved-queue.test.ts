/**
 * The file of unsent changes loaded on a second device while the first
 * also comes online, against the real server over HTTP. Device A queues offline a school with
 * a logo, a teacher in it (a chain of temporary ids), a class, an edit and a delete; saves the
 * file; device B loads it. Whichever sends first, and with B's replies lost on the way, every
 * change takes effect exactly once and both outboxes end empty (delivered), the temporary ids
 * replaced by the same server ids on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity, schoolEntity, teacherEntity } from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { wireRequest } from '../../src/contract/wire-request';
import { writeSignedInUser } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import { gatherQueue, loadSavedQueue } from '../../src/db/saved-queue/gather-and-load';
import { decodeSavedQueue, encodeSavedQueue } from '../../src/db/saved-queue/saved-queue-file';
import type { ApiClient } from '../../src/sync/api/api-client';
import { requestOptions } from '../../src/sync/api/encode-request';
import { pull } from '../../src/sync/pull/pull';
import type { SyncContext } from '../../src/sync/replay';
import { pngFile } from '../helpers/files';
import { ADMIN, startTestServer, type TestServer } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

// One server for the file (its start with the demo data is most of the time on a loaded
// machine): each test's records have names of their own, and each test renames its own class.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
});
afterAll(() => server?.close());
let run = 0;

async function serverRows(client: ApiClient, entity: EntityDescription): Promise<Record<string, unknown>[]> {
  const request = wireRequest(entity, { op: 'list' });
  const outcome = await client.request(request.path, requestOptions(request));
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body[entity.api.listField!] as Record<string, unknown>[];
}

const school = (n: number) => ({
  school_name: `Carried School ${n}`,
  school_address: '1 Hill Road',
  password: 'school-1',
  email: `office${n}@carried.example`,
  contact_no: '022 2345 6789',
  country: 'IN',
  state: 'MH',
  city: 'Mumbai',
});

const teacher = (n: number) => ({
  teacher_name: `Carried Teacher ${n}`,
  email: `carried.teacher${n}@example.org`,
  password: 'secret-1',
  contact_no: '+91 98765 43210',
  country: 'IN',
  state: 'MH',
  city: 'Pune',
  zipcode: '411001',
});

/** Two devices of one administrator: A talks to the server, B through the fault proxy. */
async function twoDevices() {
  const n = ++run;
  const proxy = await fixtures.proxy(server);
  const a = await fixtures.client(server.apiRoot);
  const b = await fixtures.client(`${proxy.url}/api`);
  for (const device of [a, b]) await writeSignedInUser(device.db, ADMIN.username);
  // A knows the server's rows; before going offline it added a class it will delete offline.
  await pull(a);
  await mutate(a.db, { op: 'add', entity: classEntity, values: { class_name: `Short-lived class ${n}` } });
  await drain(a);
  const classes = await serverRows(a.api, classEntity);
  const shortLived = String(classes.find((c) => c.class_name === `Short-lived class ${n}`)!.class_id);
  // A demo class of its own per test.
  const renamed = classes.filter((c) => /^Class \d+$/.test(String(c.class_name)))[n - 1];

  // Offline on A: adds with a chain, an edit, a delete, a file.
  const added = await mutate(a.db, {
    op: 'add',
    entity: schoolEntity,
    values: { ...school(n), school_logo: pngFile('logo.png', 2048) },
  });
  await mutate(a.db, { op: 'add', entity: teacherEntity, values: { ...teacher(n), school_id: added.key } });
  await mutate(a.db, { op: 'add', entity: classEntity, values: { class_name: `Carried class ${n}` } });
  await mutate(a.db, {
    op: 'update',
    entity: classEntity,
    key: String(renamed.class_id),
    values: { class_name: `Renamed by file ${n}` },
  });
  await mutate(a.db, { op: 'delete', entity: classEntity, key: shortLived });

  // A saves the file; B loads it.
  const text = await encodeSavedQueue(await gatherQueue(a.db));
  const report = await loadSavedQueue(b.db, await decodeSavedQueue(text));
  expect(report).toEqual({ queued: 5, alreadyHere: 0, waitingFor: [] });
  return { proxy, a, b, n, renamedId: String(renamed.class_id), shortLived };
}

async function expectOnceEach({
  a,
  b,
  n,
  renamedId,
  shortLived,
}: {
  a: SyncContext;
  b: SyncContext;
  n: number;
  renamedId: string;
  shortLived: string;
}) {
  const schools = (await serverRows(a.api, schoolEntity)).filter(
    (s) => s.school_name === school(n).school_name,
  );
  expect(schools).toHaveLength(1);
  expect(String(schools[0].school_logo)).toMatch(/\.png$/);
  const teachers = (await serverRows(a.api, teacherEntity)).filter(
    (t) => t.teacher_name === teacher(n).teacher_name,
  );
  expect(teachers).toHaveLength(1);
  expect(teachers[0].school_id).toBe(schools[0].school_id);
  const classes = await serverRows(a.api, classEntity);
  expect(classes.filter((c) => c.class_name === `Carried class ${n}`)).toHaveLength(1);
  expect(classes.find((c) => String(c.class_id) === renamedId)?.class_name).toBe(`Renamed by file ${n}`);
  expect(classes.some((c) => String(c.class_id) === shortLived)).toBe(false);

  // Both devices: nothing waiting, and the teacher names the school by the server's id.
  const schoolId = String(schools[0].school_id);
  for (const device of [a, b]) {
    expect(await device.db.outbox.toArray()).toEqual([]);
    const teacher = await device.db.rows(teacherEntity).get(String(teachers[0].teacher_id));
    expect(teacher?.school_id).toBe(schoolId);
    expect(await device.db.rows(schoolEntity).get(schoolId)).toBeDefined();
  }
}

describe('the file of unsent changes on a second device, while the first comes online too', () => {
  it('B sends first, then A: each change once, both delivered', async () => {
    const devices = await twoDevices();
    const { a, b } = devices;
    await drain(b);
    await drain(a);
    await expectOnceEach(devices);
  });

  it('A sends first, then B: each change once, both delivered', async () => {
    const devices = await twoDevices();
    const { a, b } = devices;
    await drain(a);
    await drain(b);
    await expectOnceEach(devices);
  });

  it("B's replies lost, A sends, B again: each change once, both delivered", async () => {
    const devices = await twoDevices();
    const { proxy, a, b } = devices;
    proxy.dropRepliesTo(/./, 2);
    await drain(b).catch(() => undefined);
    expect(proxy.dropped).toBe(2);
    await drain(a);
    await drain(b);
    await expectOnceEach(devices);
  });

  it('the record changed on the server between the two sends: the second copy of the edit counts as delivered', async () => {
    const devices = await twoDevices();
    const { a, b, n, renamedId } = devices;
    await drain(b);
    // Someone else changes another field of the renamed class: A's edit, merged with the
    // server's record now, is another request than B's under the same key.
    const request = wireRequest(classEntity, {
      op: 'update',
      id: renamedId,
      values: { class_id: renamedId, class_name: `Renamed by file ${n}`, sort_order: 5 },
    });
    const changed = await a.api.request(request.path, requestOptions(request));
    expect(changed).toMatchObject({ kind: 'reply', status: 200 });
    await drain(a);
    await expectOnceEach(devices);
    const renamed = (await serverRows(a.api, classEntity)).find((c) => String(c.class_id) === renamedId);
    expect(renamed).toMatchObject({ class_name: `Renamed by file ${n}`, sort_order: 5 });
  });
});
