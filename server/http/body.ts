/**
 * Reads a POST body into a plain object, refusing what no client of ours sends and what could
 * hurt the server:
 * - encodings: JSON everywhere, multipart only where the endpoint takes files; urlencoded and
 *   text/plain (what a cross-site form can send without a preflight) never;
 * - JSON nested deeper than MAX_DEPTH or with a list or object wider than MAX_WIDTH, checked on
 *   the text before parsing, so no body can keep the event loop busy;
 * - NUL characters anywhere (PostgreSQL text cannot hold them);
 * - in multipart fields, the text `null` means empty: the original client puts a null it loaded
 *   into its form data that way (api-contract §3.8, issue 12).
 * The size is limited before any of this (server/http/limit.ts). It is read before any
 * transaction opens, so a slow upload never holds a lock.
 */
import type { Context } from 'hono';
import type { WireBody } from '../../src/contract/validation';
import { TEXT } from './reply';

export type BodyResult = { ok: true; body: WireBody } | { ok: false; status: 400 | 415; message: string };

export const MAX_DEPTH = 16;
export const MAX_WIDTH = 10_000;

const JSON_TYPE = /^application\/json\b/;

/** Depth and widest container of a JSON text, or null when it goes beyond the limits. */
function withinLimits(text: string): boolean {
  const counts: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      counts.push(1);
      if (counts.length > MAX_DEPTH) return false;
    } else if (ch === 93 || ch === 125) counts.pop();
    else if (ch === 44 /* , */ && counts.length > 0) {
      counts[counts.length - 1] += 1;
      if (counts[counts.length - 1] > MAX_WIDTH) return false;
    }
  }
  return true;
}

function hasNulDeep(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNulDeep);
  if (value && typeof value === 'object' && !(value instanceof Blob))
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNulDeep(v));
  return false;
}

export async function readBody(c: Context, options: { multipart: boolean }): Promise<BodyResult> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let body: WireBody;
  if (type.startsWith('multipart/form-data') && options.multipart) {
    try {
      // Files arrive as File objects; keys ending in [] become arrays (Hono's default).
      const parsed = (await c.req.parseBody()) as WireBody;
      body = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v === 'null' ? '' : v]));
    } catch {
      return { ok: false, status: 400, message: TEXT.malformedBody };
    }
  } else if (JSON_TYPE.test(type) || type === '') {
    const text = await c.req.text();
    if (text.trim() === '') return { ok: true, body: {} };
    if (type === '') return { ok: false, status: 415, message: TEXT.unsupportedType };
    if (!withinLimits(text)) return { ok: false, status: 400, message: TEXT.tooNested };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, status: 400, message: TEXT.malformedJson };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { ok: false, status: 400, message: TEXT.notAnObject };
    body = parsed as WireBody;
  } else
    return {
      ok: false,
      status: 415,
      message: options.multipart ? TEXT.jsonOrMultipart : TEXT.unsupportedType,
    };
  if (hasNulDeep(body)) return { ok: false, status: 400, message: TEXT.nul };
  return { ok: true, body };
}
