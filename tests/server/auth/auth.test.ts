/** Login, logout and the session check (design brief §4: real authentication). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { ADMIN, api, signIn, startTestServer, type TestServer } from '../../helpers/server';

const LOGIN = 'Admin_access/login.php';
const LOGOUT = 'Admin_access/logout.php';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server.close());

describe('login', () => {
  it('succeeds and sets an HttpOnly, SameSite=Lax session cookie for the session lifetime (12 h)', async () => {
    const reply = await api(server.apiRoot).post(LOGIN, ADMIN);
    expect(reply).toMatchObject({ status: 200, body: { success: true, message: 'Login successful' } });
    const cookie = reply.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=43200[;,]/);
    // Plain http: a Secure cookie would be dropped by the browser.
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('does not believe X-Forwarded-Proto unless TRUST_PROXY says so', async () => {
    const reply = await api(server.apiRoot).post(LOGIN, ADMIN, { 'X-Forwarded-Proto': 'https' });
    expect(reply.headers.get('set-cookie')).not.toMatch(/Secure/i);
  });

  it('marks the cookies Secure behind a trusted https proxy', async () => {
    const proxied = await startTestServer({ settings: { trustProxy: 'loopback' } });
    try {
      const reply = await api(proxied.apiRoot).post(LOGIN, ADMIN, { 'X-Forwarded-Proto': 'https' });
      const cookies = reply.headers.getSetCookie();
      expect(cookies.map((c) => c.split('=')[0])).toEqual(['sid', 'known_device']);
      for (const cookie of cookies) expect(cookie).toMatch(/; Secure/i);
    } finally {
      await proxied.close();
    }
  }, 60_000);

  it('refuses a wrong password or an unknown user with 401 and no cookie', async () => {
    for (const credentials of [
      { username: ADMIN.username, password: 'wrong' },
      { username: 'nobody', password: ADMIN.password },
    ]) {
      const reply = await api(server.apiRoot).post(LOGIN, credentials);
      expect(reply).toMatchObject({
        status: 401,
        body: { success: false, message: 'Invalid username or password' },
      });
      expect(reply.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses missing or non-text credentials and malformed JSON with 400', async () => {
    for (const body of [{}, { username: 'admin' }, { username: 'admin', password: 123 }, '{oops']) {
      const reply = await api(server.apiRoot).post(LOGIN, body);
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
    }
  });

  it('gives every sign-in its own session', async () => {
    expect(await signIn(server.apiRoot)).not.toBe(await signIn(server.apiRoot));
  });

  it('ends the session the browser held when it signs in again', async () => {
    const before = await signIn(server.apiRoot);
    const reply = await api(server.apiRoot, before).post(LOGIN, ADMIN);
    const after = reply.headers.getSetCookie()[0].split(';')[0];
    expect(after).not.toBe(before);
    expect(await api(server.apiRoot, before).get(classEntity.api.list)).toMatchObject({ status: 401 });
    expect(await api(server.apiRoot, after).get(classEntity.api.list)).toMatchObject({ status: 200 });
  });
});

describe('logout', () => {
  it('ends the session and clears the cookie', async () => {
    const cookie = await signIn(server.apiRoot);
    const client = api(server.apiRoot, cookie);
    expect((await client.get(classEntity.api.list)).status).toBe(200);
    const reply = await client.post(LOGOUT);
    expect(reply).toMatchObject({ status: 200, body: { success: true } });
    expect(reply.headers.get('set-cookie')).toMatch(/^sid=;.*Max-Age=0/);
    expect(await client.get(classEntity.api.list)).toMatchObject({ status: 401, body: { success: false } });
  });

  it('succeeds without a session', async () => {
    expect(await api(server.apiRoot).post(LOGOUT)).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe('without a valid session', () => {
  const P = classEntity.api;
  const calls: [string, (c: ReturnType<typeof api>) => ReturnType<ReturnType<typeof api>['get']>][] = [
    ['list', (c) => c.get(P.list)],
    ['list delta', (c) => c.get(P.list, { since: 0 })],
    ['get', (c) => c.get(P.get, { class_id: 1 })],
    ['add', (c) => c.post(P.add, { className: 'Sneaky' })],
    ['update', (c) => c.post(P.update, { class_id: 1, className: 'Sneaky' })],
    ['delete', (c) => c.post(P.remove, { class_id: 1 })],
    // People's pictures; content folders are public (tests/server/uploads/uploads-serve.test.ts).
    ['uploads of teachers', (c) => c.get('uploads/teachers/x.png')],
    ['uploads of students', (c) => c.get('uploads/students/x.png')],
    ['uploads of an unknown folder', (c) => c.get('uploads/private/x.png')],
    ['an unknown path', (c) => c.get('Nope/nothing.php')],
  ];

  it.each(calls)('%s is refused with 401 and success false', async (_name, call) => {
    for (const cookie of [undefined, 'sid=forged-token']) {
      const reply = await call(api(server.apiRoot, cookie));
      expect(reply).toMatchObject({ status: 401, body: { success: false, message: 'Please sign in' } });
    }
  });

  it('writes nothing', async () => {
    const anonymous = api(server.apiRoot);
    await anonymous.post(P.add, { className: 'Sneaky' });
    const { body } = await api(server.apiRoot, await signIn(server.apiRoot)).get(P.list);
    expect(body.classes.map((c: { class_name: string }) => c.class_name)).not.toContain('Sneaky');
  });
});
