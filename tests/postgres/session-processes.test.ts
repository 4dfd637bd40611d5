/**
 * Two server processes on one PostgreSQL, each keeping the sessions it checked lately
 * (server/auth/session-cache.ts): a sign-out, a role change or a disabled account made through
 * one counts at the next request through the other, which hears it from the database a moment
 * later (hence the polls; a kept answer is otherwise trusted for half a minute).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMINS_PATHS } from '../../src/contract/accounts/admins-api';
import { classEntity } from '../../src/contract/entities';
import { type ClusterServer, startClusterServer } from '../helpers/cluster';
import { api, signIn } from '../helpers/server';
import { addAdmin, PASSWORD } from '../server/roles/accounts';

let cluster: ClusterServer;
let first: { apiRoot: string };
let second: { apiRoot: string };
let owner: ReturnType<typeof api>;

beforeAll(async () => {
  cluster = await startClusterServer({}, 2);
  [first, second] = cluster.processes.map((p) => ({ apiRoot: `http://127.0.0.1:${p.port}/api` }));
  owner = api(first.apiRoot, await signIn(first.apiRoot));
}, 120_000);
afterAll(() => cluster?.close());

const HEARD = { timeout: 10_000 };
const through = (server: { apiRoot: string }, cookie: string) => api(server.apiRoot, cookie);
const listStatus = async (cookie: string) => (await through(second, cookie).get(classEntity.api.list)).status;

/** Signed in through the first process; the second has checked the session (and keeps it). */
async function keptBySecond(username: string) {
  const id = await addAdmin(owner, username, 'Editor');
  const cookie = await signIn(first.apiRoot, username, PASSWORD);
  expect(await listStatus(cookie)).toBe(200);
  return { id, cookie };
}

it('a sign-out through one process ends the session on the other', async () => {
  const { cookie } = await keptBySecond('signs-out');
  expect((await through(first, cookie).post('Admin_access/logout.php', {})).status).toBe(200);
  await expect.poll(() => listStatus(cookie), HEARD).toBe(401);
});

it('an account disabled through one process is refused by the other', async () => {
  const { id, cookie } = await keptBySecond('is-disabled');
  expect((await owner.post(ADMINS_PATHS.update, { id, status: 'Disabled' })).body.success).toBe(true);
  await expect.poll(() => listStatus(cookie), HEARD).toBe(401);
});

it('a role changed through one process counts on the other', async () => {
  const { id, cookie } = await keptBySecond('is-demoted');
  const add = async (name: string) =>
    (await through(second, cookie).post(classEntity.api.add!, { className: name })).status;
  expect(await add('As an Editor')).toBe(200);
  expect((await owner.post(ADMINS_PATHS.update, { id, role: 'Viewer' })).body.success).toBe(true);
  await expect.poll(() => add('As a Viewer?'), HEARD).toBe(403);
});
