/**
 * An administrator's account changed while their device holds changes: disabled mid-drain,
 * what the server applied before is there once, the session ends at once (the queue pauses on
 * the 401), sign-in is refused with the server's words, and the changes still waiting then
 * show as failed with those words; demoted while offline, the changes the new role forbids
 * fail at the next contact with the server's words, never retried, and can be discarded.
 */
import { expect, it } from 'vitest';
import { ACCOUNT_TEXT, ADMINS_PATHS } from '../../src/contract/accounts/admins-api';
import { BATCH_PATH } from '../../src/contract/batch';
import { classEntity } from '../../src/contract/entities';
import { readSyncState, writeRoleOf, writeSignedInUser } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import { openLocalDb } from '../../src/db/open';
import { failAuthorsWaiting } from '../../src/db/outbox/queue-actions';
import { type ApiClient, createApi } from '../../src/sync/api/api-client';
import { signIn as deviceSignIn } from '../../src/sync/api/sign-in-requests';
import { replay } from '../../src/sync/replay';
import { cookieFetch } from '../helpers/cookie-fetch';
import { api, signIn } from '../helpers/server';
import { syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const EDITOR = { username: 'edna.editor', password: 'a long enough password' };
const CHANGES = 250;

it('disabled mid-drain: applied once, then paused, refused at sign-in, the rest failed with the words', async () => {
  const server = await fixtures.server();
  const owner = api(server.apiRoot, await signIn(server.apiRoot));
  const added = await owner.post(ADMINS_PATHS.add, { ...EDITOR, role: 'Editor' });
  expect(added.body.success).toBe(true);

  const db = openLocalDb(`disabled-${process.pid}`);
  await db.open();
  const deviceApi = createApi({ root: server.apiRoot, fetch: cookieFetch(), timeoutMs: 5000 });
  try {
    expect(await deviceSignIn(deviceApi, EDITOR.username, EDITOR.password)).toEqual({
      ok: true,
      role: 'Editor',
    });
    await writeSignedInUser(db, EDITOR.username);
    await writeRoleOf(db, EDITOR.username, 'Editor');
    for (let i = 0; i < CHANGES; i++)
      await mutate(db, { op: 'add', entity: classEntity, values: { class_name: `Before disabling ${i}` } });

    // The Owner disables the Editor as soon as the first batch has been answered.
    let batches = 0;
    const client: ApiClient = {
      ...deviceApi,
      async request(path, options) {
        const outcome = await deviceApi.request(path, options);
        if (path === BATCH_PATH && ++batches === 1)
          expect(
            (await owner.post(ADMINS_PATHS.update, { id: added.body.id, status: 'Disabled' })).status,
          ).toBe(200);
        return outcome;
      },
    };
    for (let round = 0; round < 20 && !(await readSyncState(db)).authRequired; round++)
      await replay({ db, api: client });
    expect((await readSyncState(db)).authRequired).toBe(true);

    const onServer = await server.query<{ class_name: string }>(
      "SELECT class_name FROM classes WHERE class_name LIKE 'Before disabling %'",
    );
    expect(onServer.length).toBeGreaterThan(0);
    expect(onServer.length).toBeLessThan(CHANGES);
    expect(new Set(onServer.map((r) => r.class_name)).size).toBe(onServer.length);

    const again = await deviceSignIn(deviceApi, EDITOR.username, EDITOR.password);
    expect(again).toEqual({ ok: false, message: ACCOUNT_TEXT.disabled, network: false });
    expect(await failAuthorsWaiting(db, EDITOR.username, ACCOUNT_TEXT.disabled)).toBe(
      CHANGES - onServer.length,
    );
    const left = await db.outbox.toArray();
    expect(left).toHaveLength(CHANGES - onServer.length);
    expect(new Set(left.map((e) => `${e.status}: ${e.lastError}`))).toEqual(
      new Set([`failed: ${ACCOUNT_TEXT.disabled}`]),
    );
    // None of what is left reached the server.
    const sent = new Set(onServer.map((r) => r.class_name));
    const waiting = await db.rows(classEntity).toArray();
    expect(
      waiting.filter((r) => sent.has(String(r.class_name)) && String(r.class_id).startsWith('tmp-')),
    ).toEqual([]);
  } finally {
    db.close();
    await db.delete();
  }
}, 120_000);

it('demoted while offline: at the next contact the queued changes fail with the server’s words, once', async () => {
  const server = await fixtures.server();
  const owner = api(server.apiRoot, await signIn(server.apiRoot));
  const added = await owner.post(ADMINS_PATHS.add, { ...EDITOR, role: 'Editor' });
  const db = openLocalDb(`demoted-${process.pid}`);
  await db.open();
  const deviceApi = createApi({ root: server.apiRoot, fetch: cookieFetch(), timeoutMs: 5000 });
  try {
    expect((await deviceSignIn(deviceApi, EDITOR.username, EDITOR.password)).ok).toBe(true);
    await writeSignedInUser(db, EDITOR.username);
    await writeRoleOf(db, EDITOR.username, 'Editor');
    for (const name of ['Queued as an Editor 1', 'Queued as an Editor 2'])
      await mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });
    expect((await owner.post(ADMINS_PATHS.update, { id: added.body.id, role: 'Viewer' })).status).toBe(200);

    const report = await replay({ db, api: deviceApi });
    expect(report.waiting).toBe(0);
    const left = await db.outbox.toArray();
    expect(left.map((e) => [e.status, e.lastError])).toEqual([
      ['failed', 'A Viewer cannot change classes.'],
      ['failed', 'A Viewer cannot change classes.'],
    ]);
    expect(await server.query("SELECT 1 FROM classes WHERE class_name LIKE 'Queued as an Editor%'")).toEqual(
      [],
    );
    // Failed, not waiting: another replay sends nothing again.
    expect((await replay({ db, api: deviceApi })).waiting).toBe(0);
  } finally {
    db.close();
    await db.delete();
  }
}, 120_000);
