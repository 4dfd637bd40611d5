/**
 * The administrators' endpoints (our extension, src/contract/accounts/admins-api.ts): the
 * Owner lists, adds and changes administrators; everyone changes their own password. Bodies
 * are JSON; every refusal is `{success: false, message}` with one of ACCOUNT_TEXT's messages.
 * They run outside the write pipeline: an administrator is managed online, never from an
 * outbox, so no Idempotency-Key is kept for them.
 */
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  ACCOUNT_TEXT,
  ADMIN_STATUSES,
  ADMINS_PATHS,
  type AdminStatus,
  passwordProblem,
  USERNAME_PATTERN,
} from '../../src/contract/accounts/admins-api';
import { cannotManageAdmins, isOwner, isRole, type Role } from '../../src/contract/accounts/roles';
import { MADE_AT_HEADER } from '../../src/contract/audit/audit-trail';
import { SESSION_COOKIE } from '../../src/contract/wire';
import { auditOrigin } from '../audit/origin';
import type { AuditOrigin } from '../audit/store';
import {
  DEFAULT_THROTTLE,
  loginThrottle,
  subjectsOf,
  type ThrottlePolicy,
  tooManyAttempts,
} from '../auth/throttle';
import type { Database } from '../db';
import { readBody } from '../http/body';
import { clientInfo, type TrustProxy } from '../http/client';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import {
  type AdminChange,
  addAdmin,
  changeOwnPassword,
  listAdmins,
  type Refusal,
  updateAdmin,
} from './store';

type Body = Record<string, unknown>;

const originOf = (c: Context<AppEnv>): AuditOrigin => ({
  adminId: c.get('adminId'),
  ...auditOrigin(c, c.req.header(MADE_AT_HEADER)),
});

const refused = (c: Context, refusal: Refusal) => fail(c, refusal.status, refusal.message);

/** What `admins/add` asks for, or why it is refused. */
function newAccount(body: Body): { username: string; password: string; role: Role } | Refusal {
  const { username, password, role } = body;
  if (typeof username !== 'string' || !USERNAME_PATTERN.test(username))
    return { status: 400, message: ACCOUNT_TEXT.badUsername };
  if (!isRole(role)) return { status: 400, message: ACCOUNT_TEXT.badRole };
  if (typeof password !== 'string') return { status: 400, message: ACCOUNT_TEXT.shortPassword };
  const problem = passwordProblem(username, password);
  if (problem) return { status: 400, message: problem };
  return { username, password, role };
}

/** An id as JSON or a form sends it: a positive whole number, or its digits. */
function idOf(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : raw;
  return typeof text === 'string' && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null;
}

/** What `admins/update` asks for, or why it is refused; an absent field stays as it is. */
function changeOf(body: Body): AdminChange | Refusal {
  const id = idOf(body.id);
  if (id === null) return { status: 404, message: ACCOUNT_TEXT.notFound };
  const { role, status, password } = body;
  if (role !== undefined && !isRole(role)) return { status: 400, message: ACCOUNT_TEXT.badRole };
  if (status !== undefined && !ADMIN_STATUSES.includes(status as AdminStatus))
    return { status: 400, message: ACCOUNT_TEXT.badStatus };
  if (password !== undefined && typeof password !== 'string')
    return { status: 400, message: ACCOUNT_TEXT.shortPassword };
  return { id, role, status: status as AdminStatus | undefined, password };
}

async function jsonBody(c: Context): Promise<Body | Response> {
  const read = await readBody(c, { multipart: false });
  return read.ok ? read.body : fail(c, read.status, read.message);
}

export interface AccountGuards {
  /** The sign-in's throttling rules, which also count wrong current passwords. */
  throttle?: ThrottlePolicy;
  trustProxy?: TrustProxy;
}

export function registerAccountRoutes(
  app: Hono<AppEnv>,
  db: Database,
  apiPrefix: string,
  guards: AccountGuards = {},
): void {
  const ownerOnly = (c: Context<AppEnv>) =>
    isOwner(c.get('role')) ? null : fail(c, 403, cannotManageAdmins(c.get('role')));

  app.get(`${apiPrefix}/${ADMINS_PATHS.list}`, async (c) => {
    return ownerOnly(c) ?? c.json({ success: true, data: await listAdmins(db.query) });
  });

  app.post(`${apiPrefix}/${ADMINS_PATHS.add}`, async (c) => {
    const denied = ownerOnly(c);
    if (denied) return denied;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const account = newAccount(body);
    if ('status' in account) return refused(c, account);
    const id = await addAdmin(db, originOf(c), account);
    if (id === null) return fail(c, 409, ACCOUNT_TEXT.usernameTaken);
    return c.json({ success: true, id, message: ACCOUNT_TEXT.added });
  });

  app.post(`${apiPrefix}/${ADMINS_PATHS.update}`, async (c) => {
    const denied = ownerOnly(c);
    if (denied) return denied;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const change = changeOf(body);
    if ('message' in change) return refused(c, change);
    const refusal = await updateAdmin(db, originOf(c), change, getCookie(c, SESSION_COOKIE));
    return refusal ? refused(c, refusal) : c.json({ success: true, message: ACCOUNT_TEXT.updated });
  });

  registerOwnPassword(app, db, apiPrefix, guards);
}

/**
 * Everyone's own password. A wrong current password is a guess at it: counted against the
 * account and the address as a sign-in's wrong password is (auth/throttle.ts), so a session
 * left open cannot be used to try passwords faster than the sign-in page allows.
 */
function registerOwnPassword(app: Hono<AppEnv>, db: Database, apiPrefix: string, guards: AccountGuards) {
  const policy = guards.throttle ?? DEFAULT_THROTTLE;
  const throttle = loginThrottle(db.query, policy);
  app.post(`${apiPrefix}/${ADMINS_PATHS.ownPassword}`, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const { current, next } = body;
    if (typeof current !== 'string') return fail(c, 400, ACCOUNT_TEXT.wrongCurrent);
    if (typeof next !== 'string') return fail(c, 400, ACCOUNT_TEXT.shortPassword);
    const [{ username }] = await db.query<{ username: string }>('SELECT username FROM admins WHERE id = $1', [
      c.get('adminId'),
    ]);
    const subjects = subjectsOf(policy, {
      username,
      address: clientInfo(c, guards.trustProxy ?? 'none').address,
    });
    const admission = await throttle.admit(subjects);
    if (!admission.allowed) {
      c.header('Retry-After', String(admission.retryAfterSeconds));
      return fail(c, 429, tooManyAttempts(admission.retryAfterSeconds));
    }
    const refusal = await changeOwnPassword(db, originOf(c), { current, next }, getCookie(c, SESSION_COOKIE));
    if (refusal?.message !== ACCOUNT_TEXT.wrongCurrent) await throttle.succeeded(subjects);
    return refusal ? refused(c, refusal) : c.json({ success: true, message: ACCOUNT_TEXT.passwordChanged });
  });
}
