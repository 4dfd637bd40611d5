/** The session and known-device cookies' attributes, in one place so login and logout agree. */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../src/contract/wire';
import { DEVICE_DAYS } from './devices';

export const DEVICE_COOKIE = 'known_device';

/**
 * `secure`: whether the request came over HTTPS (server/http/client.ts, which believes a
 * proxy only when TRUST_PROXY says so). Browsers drop Secure cookies on plain http, which
 * would make the local `npm start` unusable.
 */
export function setSessionCookie(c: Context, token: string, secure: boolean, maxAgeSeconds: number): void {
  // The cookie lasts no longer than the session's absolute limit.
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure,
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure });
}

/** Sent to the sign-in endpoints only; Strict: no other site can make a browser send it. */
export function setDeviceCookie(c: Context, token: string, secure: boolean, path: string): void {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path,
    secure,
    maxAge: DEVICE_DAYS * 86_400,
  });
}
