/**
 * What an Idempotency-Key is bound to (IETF draft "The Idempotency-Key HTTP Header Field"):
 * a fingerprint of the whole request, method, path, query and body, so that a key reused for
 * another request is refused (422) instead of answering it with the first one's reply. The
 * body counts as parsed, in a form independent of its encoding (keys sorted, files by their
 * content's hash): a batch item and the same request sent alone have the same fingerprint.
 *
 * Large texts and files are hashed on WebCrypto, which digests on libuv's thread pool: a 10 MB
 * file or a 2 MB body is hashed without holding the event loop (bench/latency.mjs). A small
 * text (every batch item of an outbox drain) is hashed at once: a few microseconds, where a
 * trip to the thread pool and back cost more than the hash (the same digest either way). Only
 * objects are rebuilt (keys sorted); lists of plain values go to JSON.stringify as they are.
 */
import { createHash } from 'node:crypto';
import type { WireBody } from '../../src/contract/validation';
import { knownHash } from '../http/multipart';

const { subtle } = globalThis.crypto;

const hex = (digest: ArrayBuffer) => Buffer.from(digest).toString('hex');

/** A file by its content: the hash made while it streamed in (http/multipart.ts), or made now. */
const fileHash = async (blob: Blob) => ({
  file: knownHash(blob) ?? hex(await subtle.digest('SHA-256', await blob.arrayBuffer())),
  size: blob.size,
});

/**
 * The body with its files replaced by their hash and size. Files are where multipart puts
 * them: top-level fields, or lists of them (`name[]`); a JSON body has none.
 */
async function withFileHashes(body: WireBody): Promise<WireBody> {
  const hasFile = (v: unknown) => v instanceof Blob || (Array.isArray(v) && v.some((x) => x instanceof Blob));
  if (!Object.values(body).some(hasFile)) return body;
  const entries = await Promise.all(
    Object.entries(body).map(async ([k, v]) => {
      if (v instanceof Blob) return [k, await fileHash(v)] as const;
      if (Array.isArray(v) && hasFile(v))
        return [k, await Promise.all(v.map((x) => (x instanceof Blob ? fileHash(x) : x)))] as const;
      return [k, v] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Texts up to this many characters are hashed on the event loop (well under a millisecond). */
const HASH_AT_ONCE = 16 * 1024;

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** The value with every object's keys in order; lists of plain values are kept as they are. */
function sorted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value))
    return value.some((x) => typeof x === 'object' && x !== null) ? value.map(sorted) : value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(byKey)
      .map(([k, v]) => [k, sorted(v)]),
  );
}

export async function fingerprintOf(
  method: string,
  path: string,
  query: Readonly<Record<string, string>>,
  body: WireBody,
): Promise<string> {
  const text = JSON.stringify(sorted([method, path, query, await withFileHashes(body)]));
  if (text.length <= HASH_AT_ONCE) return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `sha256:${hex(digest)}`;
}

/**
 * Whether a request matches a stored fingerprint. Keys stored before fingerprints (by method
 * and path) still answer a repeat of their request across the upgrade.
 */
export function sameRequest(stored: string, fingerprint: string, methodPath: string): boolean {
  return stored.startsWith('sha256:') ? stored === fingerprint : stored === methodPath;
}
