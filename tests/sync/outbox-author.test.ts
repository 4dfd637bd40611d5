/**
 * Changes belong to their author, against the real server: two administrators on one device
 * (one local store). Admin A's waiting changes are not sent under admin B's session, whatever
 * B sends; they go out when A signs in again. What the app does at sign-in (src/app/sign-in-out.ts)
 * is done here by hand: a session of that administrator and their name in the store's meta.
 */
import { expect, it } from 'vitest';
import { ensureAdmin } from '../../server/auth/admin';
import { classEntity } from '../../src/contract/entities';
import type { LocalDb } from '../../src/db/database';
import { writeSignedInUser } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import { createApi } from '../../src/sync/api/api-client';
import { signIn } from '../../src/sync/api/sign-in-requests';
import { replay, type SyncContext } from '../../src/sync/replay';
import { cookieFetch } from '../helpers/cookie-fetch';
import { ADMIN } from '../helpers/server';
import { syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const MARIA = { username: 'maria', password: 'maria-password-1' };

/** The device signed in as `who`: a session of theirs and their name in meta. */
async function signInAs(db: LocalDb, apiRoot: string, who: { username: string; password: string }) {
  const api = createApi({ root: apiRoot, fetch: cookieFetch(), timeoutMs: 5000 });
  const result = await signIn(api, who.username, who.password);
  if (!result.ok) throw new Error(`Sign-in of ${who.username} failed`);
  await writeSignedInUser(db, who.username);
  return { db, api } satisfies SyncContext;
}

/** A server with a second administrator (maria), and one device's local store in front of it. */
async function deviceOfTwoAdmins() {
  const { server, proxy, ctx } = await fixtures.proxied();
  await ensureAdmin(
    (sql, params) => server.query(sql, params ? [...params] : []),
    MARIA.username,
    MARIA.password,
  );
  return { proxy, apiRoot: `${proxy.url}/api`, db: ctx.db };
}

async function classNames(ctx: SyncContext): Promise<string[]> {
  const outcome = await ctx.api.request(classEntity.api.list, { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return (outcome.body.classes as { class_name: string }[]).map((c) => c.class_name).sort();
}

it('admin B’s session does not send admin A’s waiting changes; A’s next sign-in does', async () => {
  const { proxy, apiRoot, db } = await deviceOfTwoAdmins();

  // Admin A works offline: two changes wait on the device.
  await writeSignedInUser(db, ADMIN.username);
  const a1 = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'By admin' } });
  const a2 = await mutate(db, {
    op: 'update',
    entity: classEntity,
    key: a1.key,
    values: { class_name: 'By admin, renamed' },
  });
  expect(a2.entryId).toBe(a1.entryId);

  // Admin B signs in on the same device, works and syncs.
  const asMaria = await signInAs(db, apiRoot, MARIA);
  const b = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'By maria' } });
  const report = await replay(asMaria);
  expect(report).toMatchObject({ sent: 1, waiting: 0, held: 1, paused: false });
  expect(await classNames(asMaria)).toEqual(['By maria']);
  expect(proxy.log.filter((r) => r.key === a1.entryId)).toEqual([]);
  expect(proxy.log.filter((r) => r.key === b.entryId)).toHaveLength(1);
  const [waiting] = await db.outbox.toArray();
  expect(waiting).toMatchObject({ id: a1.entryId, author: ADMIN.username, status: 'pending', attempts: 0 });

  // Another round under B's session still sends nothing of A's.
  expect(await replay(asMaria)).toMatchObject({ sent: 0, held: 1 });
  expect(proxy.log.filter((r) => r.key === a1.entryId)).toEqual([]);

  // A signs in again: A's change goes, under A's session.
  const asAdmin = await signInAs(db, apiRoot, ADMIN);
  expect(await replay(asAdmin)).toMatchObject({ sent: 1, waiting: 0, held: 0 });
  expect(await db.outbox.toArray()).toEqual([]);
  expect(await classNames(asAdmin)).toEqual(['By admin, renamed', 'By maria']);
  expect(proxy.log.filter((r) => r.key === a1.entryId)).toHaveLength(1);
});

it('B’s change made on top of A’s waiting change waits behind it, then goes under B’s session', async () => {
  const { proxy, apiRoot, db } = await deviceOfTwoAdmins();

  await writeSignedInUser(db, ADMIN.username);
  const a = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Made by admin' } });
  const asMaria = await signInAs(db, apiRoot, MARIA);
  const b = await mutate(db, {
    op: 'update',
    entity: classEntity,
    key: a.key,
    values: { class_name: 'Renamed by maria' },
  });
  expect(b.entryId).not.toBe(a.entryId);

  // Neither goes under B's session: A's add is A's, and B's edit needs the record A's add makes.
  expect(await replay(asMaria)).toMatchObject({ sent: 0, waiting: 0, held: 2 });
  expect(proxy.log.filter((r) => r.key === a.entryId || r.key === b.entryId)).toEqual([]);
  expect(await db.outbox.count()).toBe(2);

  // A sends the add; B's edit then waits for B only.
  const asAdmin = await signInAs(db, apiRoot, ADMIN);
  expect(await replay(asAdmin)).toMatchObject({ sent: 1, held: 1 });
  expect(await classNames(asAdmin)).toEqual(['Made by admin']);

  const maria = await signInAs(db, apiRoot, MARIA);
  expect(await replay(maria)).toMatchObject({ sent: 1, held: 0 });
  expect(await classNames(maria)).toEqual(['Renamed by maria']);
  expect(await db.outbox.toArray()).toEqual([]);
});
