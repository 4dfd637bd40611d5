/**
 * Login throttling across server processes: two servers on ONE PostgreSQL database share the
 * throttle's state (server/auth/throttle.ts), so failures counted by one lock the account on
 * the other, and attempts sent to both at once are counted together. Only PostgreSQL can be
 * shared by two servers, hence this project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app/start';
import { ADMIN, api, startTestServer, type TestServer } from '../helpers/server';

const LOGIN = 'Admin_access/login.php';
const WRONG = { username: ADMIN.username, password: 'wrong' };
let first: TestServer;
let second: RunningServer;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
  first = await startTestServer();
  second = await startServer({ port: 0, databaseUrl: first.databaseUrl, adminPassword: ADMIN.password });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('two server processes on one database', () => {
  it('share failures and locks, parallel attempts included', async () => {
    const servers = [first.apiRoot, second.apiRoot];
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) => api(servers[i % 2]).post(LOGIN, WRONG)),
    );
    const statuses = replies.map((r) => r.status);
    // Five free failures and one attempt of the first lock period, across both servers.
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    for (const root of servers) {
      const locked = await api(root).post(LOGIN, ADMIN);
      expect(locked).toMatchObject({ status: 429, body: { success: false } });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
