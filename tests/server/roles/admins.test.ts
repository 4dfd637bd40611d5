/**
 * The administrators' endpoints (src/contract/accounts/admins-api.ts) over HTTP: the Owner
 * lists, adds and changes administrators; the last enabled Owner stays, even when two Owners
 * demote each other at once; a disabled administrator's sessions end at once and they cannot
 * sign in; an own password change ends the other sessions; no password or hash ever shows in a
 * reply, the audit trail or the server's log.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionHolds } from '../../../server/auth/sessions';
import type { Query } from '../../../server/db';
import { ACCOUNT_TEXT, ADMINS_PATHS, ROLE_FIELD } from '../../../src/contract/accounts/admins-api';
import { cannotManageAdmins, cannotReadAudit, ROLES } from '../../../src/contract/accounts/roles';
import { AUDIT_PATH, HIDDEN_VALUE } from '../../../src/contract/audit/audit-trail';
import { classEntity } from '../../../src/contract/entities';
import { PULL_ALL_PATH } from '../../../src/contract/wire';
import { openLiveStream } from '../../helpers/live-stream';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { addAdmin, PASSWORD, signedInAs } from './accounts';

let server: TestServer;
let owner: ReturnType<typeof api>;
/** Every line the server logged, at every level. */
const lines: string[] = [];
/** Every reply body these tests saw, to look for passwords in. */
const seen: unknown[] = [];

const tracked = (client: ReturnType<typeof api>): ReturnType<typeof api> => ({
  ...client,
  get: async (...args) => {
    const reply = await client.get(...args);
    seen.push(reply.body);
    return reply;
  },
  post: async (...args) => {
    const reply = await client.post(...args);
    seen.push(reply.body);
    return reply;
  },
});
const as = (cookie?: string) => tracked(api(server.apiRoot, cookie));

beforeAll(async () => {
  const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({ settings: { logger } });
  owner = as(await signIn(server.apiRoot));
}, 120_000);
afterAll(() => server?.close());

const list = (cookie: string) => as(cookie).get(classEntity.api.list);

describe('the Owner', () => {
  it('lists the administrators, the first one an Owner who has signed in', async () => {
    const reply = await owner.get(ADMINS_PATHS.list);
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    const first = reply.body.data.find((a: { username: string }) => a.username === 'admin');
    expect(first).toMatchObject({ role: 'Owner', status: 'Enabled' });
    expect(Date.parse(first.lastSignIn)).not.toBeNaN();
  });

  it('adds an administrator of each role, who signs in with that role', async () => {
    for (const [i, role] of ROLES.entries()) {
      const username = `role.${i}`;
      const reply = await owner.post(ADMINS_PATHS.add, { username, password: PASSWORD, role });
      expect(reply.body).toMatchObject({ success: true, id: expect.any(Number) });
      const signedIn = await as().post('Admin_access/login.php', { username, password: PASSWORD });
      expect(signedIn.body).toMatchObject({ success: true, [ROLE_FIELD]: role });
      const listed = await owner.get(ADMINS_PATHS.list);
      expect(listed.body.data.find((a: { id: number }) => a.id === reply.body.id)).toEqual({
        id: reply.body.id,
        username,
        role,
        status: 'Enabled',
        lastSignIn: expect.any(String),
      });
    }
  });

  it('is refused what is not valid, each with its message', async () => {
    await addAdmin(owner, 'taken.name', 'Viewer');
    const add = (body: object) => owner.post(ADMINS_PATHS.add, body);
    const good = { username: 'fresh.name', password: PASSWORD, role: 'Editor' };
    const cases: [object, string][] = [
      [{ ...good, username: 'x' }, ACCOUNT_TEXT.badUsername],
      [{ ...good, username: 'has space' }, ACCOUNT_TEXT.badUsername],
      [{ ...good, username: 'taken.name' }, ACCOUNT_TEXT.usernameTaken],
      [{ ...good, role: 'Admin' }, ACCOUNT_TEXT.badRole],
      [{ ...good, password: 'short' }, ACCOUNT_TEXT.shortPassword],
      [{ ...good, username: 'samesame.long', password: 'SameSame.Long' }, ACCOUNT_TEXT.passwordIsUsername],
    ];
    for (const [body, message] of cases)
      expect(await add(body), JSON.stringify(body)).toMatchObject({ body: { success: false, message } });
    const id = await addAdmin(owner, 'to.update', 'Editor');
    const update = (body: object) => owner.post(ADMINS_PATHS.update, { id, ...body });
    expect((await update({ role: 'Boss' })).body.message).toBe(ACCOUNT_TEXT.badRole);
    expect((await update({ status: 'Asleep' })).body.message).toBe(ACCOUNT_TEXT.badStatus);
    expect((await update({ password: 'to.update' })).body.message).toBe(ACCOUNT_TEXT.shortPassword);
    expect((await update({ id: 99999, role: 'Viewer' })).body.message).toBe(ACCOUNT_TEXT.notFound);
    expect((await update({ id: 'abc', role: 'Viewer' })).body.message).toBe(ACCOUNT_TEXT.notFound);
  });

  it('changes a role, which counts at the administrator’s next request', async () => {
    const id = await addAdmin(owner, 'promoted', 'Viewer');
    const cookie = await signIn(server.apiRoot, 'promoted', PASSWORD);
    expect((await as(cookie).get(ADMINS_PATHS.list)).status).toBe(403);
    expect((await owner.post(ADMINS_PATHS.update, { id, role: 'Owner' })).body).toMatchObject({
      success: true,
      message: ACCOUNT_TEXT.updated,
    });
    expect((await as(cookie).get(ADMINS_PATHS.list)).status).toBe(200);
    const pulled = await as(cookie).get(PULL_ALL_PATH, { since: `${classEntity.name}:0` });
    expect(pulled.body[ROLE_FIELD]).toBe('Owner');
  });

  it('tells the administrator’s devices of a new role at once: their live stream hears of it and they pull', async () => {
    const id = await addAdmin(owner, 'told.at.once', 'Editor');
    const stream = await openLiveStream(
      server.apiRoot,
      await signIn(server.apiRoot, 'told.at.once', PASSWORD),
    );
    try {
      await expect.poll(() => stream.ids.length).toBe(1);
      const before = stream.ids[0];
      expect((await owner.post(ADMINS_PATHS.update, { id, role: 'Viewer' })).status).toBe(200);
      await expect.poll(() => stream.ids.at(-1)).toBeGreaterThan(before);
    } finally {
      stream.close();
    }
  });
});

describe('everyone else', () => {
  it('is refused the administrators and the audit trail', async () => {
    for (const role of ROLES.filter((r) => r !== 'Owner')) {
      const client = as(await signedInAs(server.apiRoot, owner, `not.owner.${role.replace(' ', '')}`, role));
      const refusal = { status: 403, body: { success: false, message: cannotManageAdmins(role) } };
      expect(await client.get(ADMINS_PATHS.list)).toMatchObject(refusal);
      expect(
        await client.post(ADMINS_PATHS.add, { username: 'sneaky', password: PASSWORD, role }),
      ).toMatchObject(refusal);
      expect(await client.post(ADMINS_PATHS.update, { id: 1, role: 'Viewer' })).toMatchObject(refusal);
      expect(await client.get(AUDIT_PATH)).toMatchObject({
        status: 403,
        body: { success: false, message: cannotReadAudit(role) },
      });
      const pulled = await client.get(PULL_ALL_PATH, { since: `${classEntity.name}:0` });
      expect(pulled.body[ROLE_FIELD], JSON.stringify(pulled.body)).toBe(role);
    }
    const [row] = await server.query('SELECT count(*)::int AS n FROM admins WHERE username = $1', ['sneaky']);
    expect(row.n).toBe(0);
    expect((await owner.get(AUDIT_PATH)).status).toBe(200);
  });
});

describe('the last enabled Owner', () => {
  it('cannot be demoted or disabled; two Owners demoting each other at once leave one', async () => {
    // A server of its own: the other tests add Owners.
    const alone = await startTestServer();
    try {
      const first = api(alone.apiRoot, await signIn(alone.apiRoot));
      const [{ id: firstId }] = await alone.query<{ id: number }>(
        "SELECT id FROM admins WHERE username = 'admin'",
      );
      const lastOwner = { status: 409, body: { success: false, message: ACCOUNT_TEXT.lastOwner } };
      expect(await first.post(ADMINS_PATHS.update, { id: firstId, role: 'Editor' })).toMatchObject(lastOwner);
      expect(await first.post(ADMINS_PATHS.update, { id: firstId, status: 'Disabled' })).toMatchObject(
        lastOwner,
      );

      // Two Owners, two demotions at once (the role is checked before either one locks).
      const secondId = await addAdmin(first, 'second.owner', 'Owner');
      const replies = await Promise.all([
        first.post(ADMINS_PATHS.update, { id: secondId, role: 'Viewer' }),
        first.post(ADMINS_PATHS.update, { id: firstId, role: 'Editor' }),
      ]);
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      const other = replies.find((r) => r.status !== 200);
      // Refused as the last Owner, or (when the first one came through before it was even
      // looked at) because its sender is no longer an Owner.
      expect([ACCOUNT_TEXT.lastOwner, cannotManageAdmins('Editor')]).toContain(other?.body.message);
      const owners = await alone.query("SELECT id FROM admins WHERE role = 'Owner' AND status = 'Enabled'");
      expect(owners).toHaveLength(1);
    } finally {
      await alone.close();
    }
  });
});

describe('a disabled administrator', () => {
  it('loses every session at once and cannot sign in', async () => {
    const id = await addAdmin(owner, 'leaving', 'Editor');
    const [a, b] = [
      await signIn(server.apiRoot, 'leaving', PASSWORD),
      await signIn(server.apiRoot, 'leaving', PASSWORD),
    ];
    expect((await list(a)).status).toBe(200);
    expect((await owner.post(ADMINS_PATHS.update, { id, status: 'Disabled' })).body.success).toBe(true);
    expect((await list(a)).status).toBe(401);
    expect((await list(b)).status).toBe(401);
    // The live stream asks sessionHolds now and then: its answer ends a disabled one's streams.
    const query: Query = (sql, params) => server.query(sql, params && [...params]);
    expect(await sessionHolds(query, a.slice(a.indexOf('=') + 1))).toBe(false);
    const refused = await as().post('Admin_access/login.php', { username: 'leaving', password: PASSWORD });
    expect(refused).toMatchObject({ status: 403, body: { success: false, message: ACCOUNT_TEXT.disabled } });
    // Refused as disabled, not locked out as a guesser: enabled again, the account signs in.
    for (let i = 0; i < 6; i++)
      await as().post('Admin_access/login.php', { username: 'leaving', password: PASSWORD });
    expect((await owner.post(ADMINS_PATHS.update, { id, status: 'Enabled' })).body.success).toBe(true);
    expect((await list(await signIn(server.apiRoot, 'leaving', PASSWORD))).status).toBe(200);
  });
});

describe('an own password change', () => {
  it('is refused with a wrong current password', async () => {
    const cookie = await signedInAs(server.apiRoot, owner, 'wrong.current', 'Viewer');
    const reply = await as(cookie).post(ADMINS_PATHS.ownPassword, {
      current: 'not it at all',
      next: 'another long password',
    });
    expect(reply).toMatchObject({
      status: 400,
      body: { success: false, message: ACCOUNT_TEXT.wrongCurrent },
    });
    expect(
      (await as(cookie).post(ADMINS_PATHS.ownPassword, { current: PASSWORD, next: 'short' })).body.message,
    ).toBe(ACCOUNT_TEXT.shortPassword);
    expect((await list(await signIn(server.apiRoot, 'wrong.current', PASSWORD))).status).toBe(200);
  });

  it('counts wrong current passwords as the sign-in counts wrong passwords: a few, then a wait', async () => {
    const cookie = await signedInAs(server.apiRoot, owner, 'guessing.current', 'Viewer');
    const guess = () =>
      as(cookie).post(ADMINS_PATHS.ownPassword, { current: 'a guess', next: 'another long password' });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await guess()).status);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.at(-1)).toBe(429);
    const locked = await as(cookie).post(ADMINS_PATHS.ownPassword, {
      current: PASSWORD,
      next: 'another long password',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many/);
  });

  it('ends the other sessions and keeps this one', async () => {
    const here = await signedInAs(server.apiRoot, owner, 'changing', 'Viewer');
    const elsewhere = await signIn(server.apiRoot, 'changing', PASSWORD);
    const next = 'a brand new long password';
    expect(await as(here).post(ADMINS_PATHS.ownPassword, { current: PASSWORD, next })).toMatchObject({
      status: 200,
      body: { success: true, message: ACCOUNT_TEXT.passwordChanged },
    });
    expect((await list(here)).status).toBe(200);
    expect((await list(elsewhere)).status).toBe(401);
    await expect(signIn(server.apiRoot, 'changing', PASSWORD)).rejects.toThrow();
    expect((await list(await signIn(server.apiRoot, 'changing', next))).status).toBe(200);
  });
});

describe('passwords', () => {
  it('show nowhere: not in replies, the audit trail or the log', async () => {
    const id = await addAdmin(owner, 'secretive', 'Editor');
    await owner.post(ADMINS_PATHS.update, { id, password: 'the reset long password' });
    const audit = await owner.get(AUDIT_PATH, { entity: 'admins', limit: 100 });
    expect(audit.body.data.length).toBeGreaterThan(0);
    const entry = audit.body.data.find(
      (e: { recordId?: string; record_id?: string; op: string; changes: object }) =>
        e.op === 'update' && JSON.stringify(e).includes(HIDDEN_VALUE),
    );
    expect(entry).toBeDefined();
    const hashes = (await server.query<{ password_hash: string }>('SELECT password_hash FROM admins')).map(
      (r) => r.password_hash,
    );
    const secrets = [PASSWORD, 'the reset long password', 'a brand new long password', 'admin123', ...hashes];
    const everything = [JSON.stringify(seen), lines.join('\n')];
    for (const text of everything) for (const secret of secrets) expect(text).not.toContain(secret);
    expect(lines.length).toBeGreaterThan(0);
  });
});

describe('legacy mode', () => {
  it('has no administrators’ endpoints: the PHP API has one administrator', async () => {
    const legacy = await startTestServer({ legacy: true });
    try {
      const client = api(legacy.apiRoot, await signIn(legacy.apiRoot));
      expect((await client.get(ADMINS_PATHS.list)).status).toBe(404);
      expect(
        (await client.post(ADMINS_PATHS.add, { username: 'x.y.z', password: PASSWORD, role: 'Viewer' }))
          .status,
      ).toBe(404);
      expect(
        (await client.post(ADMINS_PATHS.ownPassword, { current: 'admin123', next: PASSWORD })).status,
      ).toBe(404);
    } finally {
      await legacy.close();
    }
  });
});
