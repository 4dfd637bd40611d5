/** Login and logout: the only /api endpoints reachable without a session. */
import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { authEndpoints } from '../../src/contract/endpoints';
import { SESSION_COOKIE } from '../../src/contract/wire';
import type { Database } from '../db';
import { readBody } from '../http/body';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { clearSessionCookie, setSessionCookie } from './cookie';
import { hashPassword, verifyPassword } from './password';
import { createSession, endSession } from './sessions';

export function registerAuthRoutes(app: Hono<AppEnv>, db: Database, apiPrefix: string): void {
  // Verified against when the username is unknown, so that both failures take the same time
  // and the reply time does not reveal which usernames exist.
  const dummyHash = hashPassword('not a real password');

  app.post(`${apiPrefix}/${authEndpoints.login.path}`, async (c) => {
    const read = await readBody(c);
    if (!read.ok) return fail(c, 400, read.message);
    const { username, password } = read.body;
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
      return fail(c, 400, TEXT.loginMissing);
    }
    const [admin] = await db.query<{ id: number; password_hash: string }>(
      'SELECT id, password_hash FROM admins WHERE username = $1',
      [username],
    );
    const valid = await verifyPassword(password, admin?.password_hash ?? (await dummyHash));
    if (!admin || !valid) return fail(c, 401, TEXT.loginFailed);
    setSessionCookie(c, await createSession(db.query, admin.id));
    return c.json({ success: true, message: TEXT.loginOk });
  });

  // Succeeds without a session too: the goal "signed out" is reached either way.
  app.post(`${apiPrefix}/${authEndpoints.logout.path}`, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await endSession(db.query, token);
    clearSessionCookie(c);
    return c.json({ success: true, message: TEXT.loggedOut });
  });
}
