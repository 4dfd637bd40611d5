/** The session cookie's attributes, in one place so login and logout agree. */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../src/contract/wire';
import { SESSION_SECONDS } from './sessions';

/**
 * Secure only over https: browsers drop Secure cookies on plain http, which would make the
 * local `npm start` unusable. Behind a TLS-terminating proxy, X-Forwarded-Proto tells us.
 */
function isHttps(c: Context): boolean {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(c.req.url).protocol.replace(':', '')) === 'https';
}

export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: isHttps(c),
    maxAge: SESSION_SECONDS,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c) });
}
