/**
 * Session limits: an idle timeout and an absolute lifetime. The server runs
 * in this process and takes session times from its clock, so the test moves the clock
 * (Date only: timers and I/O run as usual) instead of waiting.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SESSION_POLICY } from '../../../server/auth/sessions';
import { classEntity } from '../../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

const MINUTE = 60_000;
const policy = { idleSeconds: 30 * 60, maxSeconds: 2 * 60 * 60 };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ settings: { sessions: policy } });
});
afterAll(() => server.close());
afterEach(() => vi.useRealTimers());

/** Moves this process's clock forward (the server's too: it runs here). */
function advance(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

const list = (cookie: string) => api(server.apiRoot, cookie).get(classEntity.api.list);

describe('sessions', () => {
  it('default to two hours idle and twelve hours at most', () => {
    expect(DEFAULT_SESSION_POLICY).toEqual({ idleSeconds: 7200, maxSeconds: 43200 });
  });

  it('end after the idle timeout with the usual 401 JSON', async () => {
    const cookie = await signIn(server.apiRoot);
    advance(29 * MINUTE);
    expect((await list(cookie)).status).toBe(200);
    // 29 + 29 minutes since sign-in, but only 29 since the last request: still open.
    advance(29 * MINUTE);
    expect((await list(cookie)).status).toBe(200);
    advance(31 * MINUTE);
    expect(await list(cookie)).toMatchObject({
      status: 401,
      body: { success: false, message: 'Please sign in' },
    });
  });

  it('end at the absolute lifetime however active they are', async () => {
    const cookie = await signIn(server.apiRoot);
    for (let elapsed = 0; elapsed < 115; elapsed += 23) {
      advance(23 * MINUTE);
      expect((await list(cookie)).status, `after ${elapsed + 23} minutes`).toBe(200);
    }
    advance(6 * MINUTE);
    expect(await list(cookie)).toMatchObject({ status: 401, body: { success: false } });
  });

  it('give the cookie the absolute lifetime as its Max-Age', async () => {
    const reply = await api(server.apiRoot).post('Admin_access/login.php', {
      username: 'admin',
      password: 'admin123',
    });
    expect(reply.headers.getSetCookie()[0]).toMatch(/^sid=[^;]+; Max-Age=7200;/);
  });
});
