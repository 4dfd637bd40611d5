/** Refuses every request without a valid session (design brief §4: real authentication). */
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../src/contract/wire';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { findSession } from './sessions';

export function requireSession(db: Database): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const holder = token ? await findSession(db.query, token) : null;
    if (holder === null) return fail(c, 401, TEXT.signIn);
    c.set('adminId', holder.adminId);
    c.set('role', holder.role);
    await next();
  };
}
