/** Login and logout: the only /api endpoints reachable without a session. */
import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { ACCOUNT_TEXT, type AdminStatus, ROLE_FIELD } from '../../src/contract/accounts/admins-api';
import type { Role } from '../../src/contract/accounts/roles';
import { authEndpoints } from '../../src/contract/endpoints';
import { SESSION_COOKIE } from '../../src/contract/wire';
import type { Database } from '../db';
import { readBody } from '../http/body';
import { clientInfo, type TrustProxy } from '../http/client';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { clearSessionCookie, DEVICE_COOKIE, setDeviceCookie, setSessionCookie } from './cookie';
import { isKnownDevice, rememberDevice } from './devices';
import { hashPassword, verifyPassword } from './password';
import { createSession, DEFAULT_SESSION_POLICY, endSession, type SessionPolicy } from './sessions';
import {
  DEFAULT_THROTTLE,
  loginThrottle,
  subjectsOf,
  type ThrottlePolicy,
  tooManyAttempts,
} from './throttle';

export interface AuthOptions {
  sessions?: SessionPolicy;
  throttle?: ThrottlePolicy;
  trustProxy?: TrustProxy;
}

export function registerAuthRoutes(
  app: Hono<AppEnv>,
  db: Database,
  apiPrefix: string,
  options: AuthOptions = {},
): void {
  const sessions = options.sessions ?? DEFAULT_SESSION_POLICY;
  const throttlePolicy = options.throttle ?? DEFAULT_THROTTLE;
  const throttle = loginThrottle(db.query, throttlePolicy);
  const trust = options.trustProxy ?? 'none';
  // The known-device cookie goes to the sign-in endpoints only (their common folder).
  const loginPath = `${apiPrefix}/${authEndpoints.login.path}`;
  const devicePath = loginPath.slice(0, loginPath.lastIndexOf('/') + 1);
  // Verified against when the username is unknown, so that both failures take the same time
  // and the reply time does not reveal which usernames exist.
  const dummyHash = hashPassword('not a real password');

  app.post(loginPath, async (c) => {
    const read = await readBody(c, { multipart: false });
    if (!read.ok) return fail(c, read.status, read.message);
    const { username, password } = read.body;
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
      return fail(c, 400, TEXT.loginMissing);
    }
    const client = clientInfo(c, trust);
    const deviceToken = getCookie(c, DEVICE_COOKIE);
    const known = await isKnownDevice(db.query, deviceToken, username);
    const subjects = subjectsOf(throttlePolicy, {
      username,
      address: client.address,
      knownDevice: known ? deviceToken : undefined,
    });
    const admission = await throttle.admit(subjects);
    if (!admission.allowed) {
      c.header('Retry-After', String(admission.retryAfterSeconds));
      return fail(c, 429, tooManyAttempts(admission.retryAfterSeconds));
    }

    const [admin] = await db.query<{ id: number; password_hash: string; role: Role; status: AdminStatus }>(
      'SELECT id, password_hash, role, status FROM admins WHERE username = $1',
      [username],
    );
    const valid = await verifyPassword(password, admin?.password_hash ?? (await dummyHash));
    // A failure stays counted (admit counted it).
    if (!admin || !valid) return fail(c, 401, TEXT.loginFailed);

    // The right password is no guess, even for a disabled account: it is taken back like any
    // right password, so that its holder asking again is not locked out as a guesser.
    await throttle.succeeded(subjects);
    if (admin.status !== 'Enabled') return fail(c, 403, ACCOUNT_TEXT.disabled);
    // A new session id at every sign-in; the one this browser held before ends now.
    const previous = getCookie(c, SESSION_COOKIE);
    if (previous) await endSession(db.query, previous);
    setSessionCookie(c, await createSession(db.query, admin.id, sessions), client.https, sessions.maxSeconds);
    await db.query('UPDATE admins SET last_sign_in = now() WHERE id = $1', [admin.id]);
    const device = await rememberDevice(db.query, deviceToken, admin.id, known);
    setDeviceCookie(c, device, client.https, devicePath);
    return c.json({ success: true, message: TEXT.loginOk, [ROLE_FIELD]: admin.role });
  });

  // Succeeds without a session too: the goal "signed out" is reached either way.
  app.post(`${apiPrefix}/${authEndpoints.logout.path}`, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await endSession(db.query, token);
    clearSessionCookie(c, clientInfo(c, trust).https);
    return c.json({ success: true, message: TEXT.loggedOut });
  });
}
