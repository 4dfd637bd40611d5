/** Refuses every request without a valid session (design brief §4: real authentication). */
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../src/contract/wire';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import type { SessionCache } from './session-cache';
import { findSession } from './sessions';

/** `cache`: the sessions this process checked lately (session-cache.ts); without it, each is read. */
export function requireSession(db: Database, cache?: SessionCache): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const holder = token ? await findSession(db.query, token, cache) : null;
    if (holder === null) return fail(c, 401, TEXT.signIn);
    c.set('adminId', holder.adminId);
    c.set('role', holder.role);
    await next();
  };
}
