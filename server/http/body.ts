/**
 * Reads a POST body into a plain object whatever its encoding: the legacy client sends JSON,
 * multipart or urlencoded depending on the endpoint, and we accept all three everywhere.
 * A missing Content-Type is read as JSON (an empty body is an empty object). It is read before
 * any transaction opens, so a slow upload never holds a lock.
 */
import type { Context } from 'hono';
import type { WireBody } from '../../src/contract/validation';
import { TEXT } from './reply';

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
