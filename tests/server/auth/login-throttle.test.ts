/**
 * Login throttling (the policy is in server/auth/throttle.ts). Client
 * addresses come from X-Forwarded-For, believed because these servers trust a loopback proxy.
 * Lock periods pass by moving this process's clock (the server runs here and the throttle
 * reads Date.now()), not by waiting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_THROTTLE, lockSeconds } from '../../../server/auth/throttle';
import { classEntity } from '../../../src/contract/entities';
import { ADMIN, api, startTestServer, type TestServer } from '../../helpers/server';

const LOGIN = 'Admin_access/login.php';
const WRONG = { username: ADMIN.username, password: 'wrong' };

afterEach(() => vi.useRealTimers());

/** Each test starts its own server (fresh throttle state) and runs scrypt per attempt. */
const SLOW = 120_000;

function advanceSeconds(seconds: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + seconds * 1000);
}

async function withServer(test: (server: TestServer) => Promise<void>, throttle = DEFAULT_THROTTLE) {
  const server = await startTestServer({ settings: { trustProxy: 'loopback', throttle } });
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

const login = (server: TestServer, credentials: object, address: string, cookie?: string) =>
  api(server.apiRoot, cookie).post(LOGIN, credentials, { 'X-Forwarded-For': address });

function expectLocked(reply: Awaited<ReturnType<typeof login>>, maxSeconds: number) {
  expect(reply.status).toBe(429);
  expect(reply.body).toEqual({
    success: false,
    message: expect.stringMatching(/^Too many sign-in attempts/),
  });
  const retryAfter = Number(reply.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  return retryAfter;
}

describe('the policy', () => {
  it('doubles the lock from its first period up to its cap', () => {
    const rule = DEFAULT_THROTTLE.accountFromAddress;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => lockSeconds(rule, n))).toEqual([30, 60, 120, 240, 480, 900, 900]);
  });
});

describe('one account from one address', () => {
  it(
    'allows five failures, then one attempt per doubling lock period, with 429 and Retry-After',
    () =>
      withServer(async (server) => {
        const address = '203.0.113.5';
        for (let i = 0; i < 5; i++) expect((await login(server, WRONG, address)).status).toBe(401);
        // The sixth attempt is checked (and opens a 30 s period); the seventh waits.
        expect((await login(server, WRONG, address)).status).toBe(401);
        expectLocked(await login(server, WRONG, address), 30);
        // Even the right password is refused while locked: the lock must not answer guesses.
        expectLocked(await login(server, ADMIN, address), 30);

        advanceSeconds(31);
        expect((await login(server, WRONG, address)).status).toBe(401);
        const retryAfter = expectLocked(await login(server, ADMIN, address), 60);
        expect(retryAfter).toBeGreaterThan(30);

        advanceSeconds(61);
        const ok = await login(server, ADMIN, address);
        expect(ok).toMatchObject({ status: 200, body: { success: true } });
        // A success forgets the failures: five free attempts again.
        for (let i = 0; i < 5; i++) expect((await login(server, WRONG, address)).status).toBe(401);
      }),
    SLOW,
  );

  it(
    'counts attempts sent in parallel: only the free ones and one more are checked',
    () =>
      withServer(async (server) => {
        const replies = await Promise.all(
          Array.from({ length: 20 }, () => login(server, WRONG, '203.0.113.6')),
        );
        const statuses = replies.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 401)).toHaveLength(6);
        expect(statuses.filter((s) => s === 429)).toHaveLength(14);
      }),
    SLOW,
  );

  it(
    'does not lock another address out of the same account before the account limit',
    () =>
      withServer(async (server) => {
        for (let i = 0; i < 7; i++) await login(server, WRONG, '203.0.113.7');
        expectLocked(await login(server, ADMIN, '203.0.113.7'), 60);
        expect((await login(server, ADMIN, '198.51.100.1')).status).toBe(200);
      }),
    SLOW,
  );

  it(
    'holds across a restart (the state is in the database)',
    () =>
      withServer(async (server) => {
        for (let i = 0; i < 7; i++) await login(server, WRONG, '203.0.113.8');
        await server.restart();
        expectLocked(await login(server, ADMIN, '203.0.113.8'), 60);
      }),
    SLOW,
  );
});

describe('one account from many addresses', () => {
  it(
    'locks newcomers after 20 failures, but not a device that signed in to it before',
    () =>
      withServer(async (server) => {
        const known = (await login(server, ADMIN, '192.0.2.1')).headers.getSetCookie();
        const deviceCookie = known.find((c) => c.startsWith('known_device='))!.split(';')[0];
        for (let i = 0; i < 20; i++)
          expect((await login(server, WRONG, `203.0.113.${100 + i}`)).status).toBe(401);
        // The 21st checked attempt opens the account's lock period; the next newcomer waits.
        expect((await login(server, WRONG, '203.0.113.200')).status).toBe(401);
        expectLocked(await login(server, ADMIN, '198.51.100.2'), 60);
        // The administrator's own tablet, even from a new address, is not held back.
        const reply = await login(server, ADMIN, '198.51.100.3', deviceCookie);
        expect(reply.status).toBe(200);
        const session = reply.headers.getSetCookie()[0].split(';')[0];
        expect((await api(server.apiRoot, session).get(classEntity.api.list)).status).toBe(200);
      }),
    SLOW,
  );

  it(
    'throttles a known device on its own failures',
    () =>
      withServer(async (server) => {
        const known = await login(server, ADMIN, '192.0.2.2');
        const deviceCookie = known.headers.getSetCookie()[1].split(';')[0];
        for (let i = 0; i < 6; i++)
          expect((await login(server, WRONG, `203.0.113.${i}`, deviceCookie)).status).toBe(401);
        expectLocked(await login(server, ADMIN, '203.0.113.50', deviceCookie), 30);
        // ... which does not count against the account for others.
        expect((await login(server, ADMIN, '198.51.100.4')).status).toBe(200);
      }),
    SLOW,
  );

  it(
    'does not take a device cookie it never issued for this account',
    () =>
      withServer(async (server) => {
        const forged = `known_device=${'A'.repeat(43)}`;
        for (let i = 0; i < 21; i++) await login(server, WRONG, `203.0.113.${i}`, forged);
        expectLocked(await login(server, ADMIN, '203.0.113.99', forged), 60);
      }),
    SLOW,
  );
});

describe('one address trying many accounts', () => {
  // The default allows 100 failures; 10 here keeps the test short (each attempt runs scrypt).
  const policy = { ...DEFAULT_THROTTLE, address: { ...DEFAULT_THROTTLE.address, free: 10 } };

  it(
    'is locked after its free failures across accounts, successes not counted',
    () =>
      withServer(async (server) => {
        const address = '203.0.113.77';
        for (let i = 0; i < 5; i++) expect((await login(server, ADMIN, address)).status).toBe(200);
        for (let i = 0; i < 10; i++) {
          const reply = await login(server, { username: `user${i}`, password: 'x' }, address);
          expect(reply.status).toBe(401);
        }
        expect((await login(server, { username: 'user10', password: 'x' }, address)).status).toBe(401);
        expectLocked(await login(server, ADMIN, address), 60);
        expect((await login(server, ADMIN, '198.51.100.5')).status).toBe(200);
      }, policy),
    SLOW,
  );
});

describe('without TRUST_PROXY', () => {
  it(
    'ignores X-Forwarded-For: the address is the connection peer',
    async () => {
      const server = await startTestServer();
      try {
        for (let i = 0; i < 6; i++) await login(server, WRONG, `203.0.113.${i}`);
        expectLocked(await login(server, ADMIN, '198.51.100.6'), 30);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );
});
