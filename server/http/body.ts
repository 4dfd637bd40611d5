/**
 * Reads a POST body into a plain object, refusing what no client of ours sends and what could
 * hurt the server:
 * - encodings: JSON everywhere, multipart only where the endpoint takes files; urlencoded and
 *   text/plain (what a cross-site form can send without a preflight) never;
 * - JSON larger than MAX_JSON_BYTES, nested deeper than MAX_DEPTH, with a list or object wider
 *   than MAX_WIDTH or more than MAX_VALUES values in all, checked before parsing (the size from
 *   the Content-Length, the rest on the text), so no body can keep the event loop busy;
 * - NUL characters anywhere (PostgreSQL text cannot hold them);
 * - in multipart fields, the text `null` means empty: the original client puts a null it loaded
 *   into its form data that way (api-contract §3.8); multipart is read as it streams
 *   in, files to temporary files (multipart.ts).
 * The size is limited before any of this (server/http/limit.ts). It is read before any
 * transaction opens, so a slow upload never holds a lock.
 */
import type { Context } from 'hono';
import type { WireBody } from '../../src/contract/validation';
import { MultipartError, readMultipart } from './multipart';
import { TEXT } from './reply';

export type BodyResult =
  | { ok: true; body: WireBody }
  | { ok: false; status: 400 | 413 | 415; message: string };

export const MAX_DEPTH = 16;
export const MAX_WIDTH = 10_000;
/** Values (counted as the commas and colons between them) in a whole JSON body. */
export const MAX_VALUES = 50_000;
/**
 * The largest JSON body. Files come as multipart (up to the 12 MB of limit.ts); a JSON body is
 * text and ids: the largest single request is a subject with 65,535 characters of content (at
 * most ~200 KB), and the client splits batches at BATCH_MAX_BYTES. Within these limits reading,
 * checking, parsing and fingerprinting a JSON body takes a few milliseconds of the event loop
 * (bench/latency.mjs).
 */
export const MAX_JSON_BYTES = 2 * 1024 * 1024;
const JSON_TOO_LARGE = `The JSON body is larger than ${MAX_JSON_BYTES / (1024 * 1024)} MB (files go as multipart/form-data)`;

const JSON_TYPE = /^application\/json\b/;

/** Whether the `"` at `at` is escaped (preceded by an odd number of backslashes). */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  for (let k = at - 1; text.charCodeAt(k) === 92; k--) slashes++;
  return slashes % 2 === 1;
}

/**
 * Whether a JSON text stays within the depth, width and value limits, checked on the text
 * before parsing. Strings are skipped with indexOf (native speed, whatever their length), so
 * the scan costs about what the structure costs.
 */
function withinLimits(text: string): boolean {
  const counts: number[] = [];
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      // Unterminated: JSON.parse refuses it.
      if (end === -1) return true;
      i = end;
    } else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      counts.push(1);
      if (counts.length > MAX_DEPTH) return false;
    } else if (ch === 93 || ch === 125) counts.pop();
    else if (ch === 44 /* , */ || ch === 58 /* : */) {
      if (++values > MAX_VALUES) return false;
      if (ch === 44 && counts.length > 0 && ++counts[counts.length - 1] > MAX_WIDTH) return false;
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
      // Files arrive as File objects (on disk until the request is over); keys ending in []
      // become lists, as with Hono's parseBody (multipart.ts).
      const parsed = await readMultipart(c);
      body = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v === 'null' ? '' : v]));
    } catch (err) {
      if (!(err instanceof MultipartError)) throw err;
      return { ok: false, status: 400, message: TEXT.malformedBody };
    }
  } else if (JSON_TYPE.test(type) || type === '') {
    // Refused from its length before it is read, when it says its length.
    if (Number(c.req.header('content-length') ?? 0) > MAX_JSON_BYTES)
      return { ok: false, status: 413, message: JSON_TOO_LARGE };
    const text = await c.req.text();
    if (text.length > MAX_JSON_BYTES) return { ok: false, status: 413, message: JSON_TOO_LARGE };
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
    // In JSON text a NUL can only be written as the escape \u0000 (a raw one does not parse):
    // without that escape the parsed body holds none, and need not be walked.
    if (!text.includes('\\u0000')) return { ok: true, body: parsed as WireBody };
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
