/**
 * A process keeps the sessions it checked lately (server/auth/session-cache.ts). What makes a
 * kept answer wrong counts at the next request even when no request of this server made it: a
 * session deleted or an administrator's role or status changed in the database directly (an
 * operator's SQL, another process) is heard through the database's notification. On PostgreSQL
 * the notification arrives a moment after the commit, hence the polls; a kept answer is
 * otherwise trusted for half a minute, longer than they wait.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { addAdmin, PASSWORD } from '../roles/accounts';

let server: TestServer;
let owner: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  owner = api(server.apiRoot, await signIn(server.apiRoot));
}, 120_000);
afterAll(() => server?.close());

const HEARD = { timeout: 10_000 };
const tokenHash = (cookie: string) =>
  createHash('sha256')
    .update(cookie.slice(cookie.indexOf('=') + 1))
    .digest('hex');
const list = (cookie: string) => api(server.apiRoot, cookie).get(classEntity.api.list);
const addClass = (cookie: string, name: string) =>
  api(server.apiRoot, cookie).post(classEntity.api.add!, { className: name });

/** An administrator of `role`, signed in, whose session this server has just checked (and kept). */
async function checkedSession(username: string, role: 'Editor' | 'Viewer') {
  const id = await addAdmin(owner, username, role);
  const cookie = await signIn(server.apiRoot, username, PASSWORD);
  expect((await list(cookie)).status).toBe(200);
  expect((await list(cookie)).status).toBe(200);
  return { id, cookie };
}

describe('a session kept by the server', () => {
  it('is refused once its row is deleted in the database', async () => {
    const { cookie } = await checkedSession('deleted-row', 'Editor');
    await server.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(cookie)]);
    await expect.poll(async () => (await list(cookie)).status, HEARD).toBe(401);
  });

  it('is refused once its administrator is disabled in the database', async () => {
    const { id, cookie } = await checkedSession('disabled-row', 'Editor');
    await server.query("UPDATE admins SET status = 'Disabled' WHERE id = $1", [id]);
    await expect.poll(async () => (await list(cookie)).status, HEARD).toBe(401);
  });

  it('carries the role its administrator has in the database now', async () => {
    const { id, cookie } = await checkedSession('demoted-row', 'Editor');
    expect((await addClass(cookie, 'Written as an Editor')).status).toBe(200);
    await server.query("UPDATE admins SET role = 'Viewer' WHERE id = $1", [id]);
    await expect.poll(async () => (await addClass(cookie, 'Written as a Viewer?')).status, HEARD).toBe(403);
  });

  it('stays with every other session when one ends: each is checked as it is', async () => {
    const kept = await checkedSession('still-here', 'Editor');
    const gone = await checkedSession('gone-now', 'Editor');
    await server.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(gone.cookie)]);
    await expect.poll(async () => (await list(gone.cookie)).status, HEARD).toBe(401);
    expect((await list(kept.cookie)).status).toBe(200);
  });
});
