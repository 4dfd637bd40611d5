/**
 * Reads a POST body into a plain object whatever its encoding: the legacy client sends JSON,
 * multipart or urlencoded depending on the endpoint, and we accept all three everywhere.
 * A missing Content-Type is read as JSON (an empty body is an empty object).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { WireBody } from '../../src/contract/validation';
import type { AppEnv } from './env';
import { fail, TEXT } from './reply';

type BodyResult = { ok: true; body: WireBody } | { ok: false; message: string };

export async function readBody(c: Context): Promise<BodyResult> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    try {
      // Files arrive as File objects; keys ending in [] become arrays (Hono's default).
      return { ok: true, body: (await c.req.parseBody()) as WireBody };
    } catch {
      return { ok: false, message: TEXT.malformedBody };
    }
  }
  const text = await c.req.text();
  if (text.trim() === '') return { ok: true, body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: TEXT.malformedJson };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: TEXT.notAnObject };
  }
  return { ok: true, body: parsed as WireBody };
}

/** Parses the body before any transaction opens, so a slow upload never holds a lock. */
export const parsedBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.env?.batch?.body;
  if (given) {
    c.set('body', given);
    return next();
  }
  const result = await readBody(c);
  if (!result.ok) return fail(c, 400, result.message);
  c.set('body', result.body);
  await next();
};
