/**
 * What an Idempotency-Key is bound to (IETF draft "The Idempotency-Key HTTP Header Field"):
 * a fingerprint of the whole request, method, path, query and body, so that a key reused for
 * another request is refused (422) instead of answering it with the first one's reply. The
 * body counts as parsed, in a form independent of its encoding (keys sorted, files by their
 * content's hash): a batch item and the same request sent alone have the same fingerprint.
 */
import { createHash } from 'node:crypto';
import type { WireBody } from '../../src/contract/validation';

async function canonical(value: unknown): Promise<unknown> {
  if (value instanceof Blob) {
    const hash = createHash('sha256')
      .update(new Uint8Array(await value.arrayBuffer()))
      .digest('hex');
    return { file: hash, size: value.size };
  }
  if (Array.isArray(value)) return Promise.all(value.map(canonical));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(
      await Promise.all(entries.map(async ([k, v]) => [k, await canonical(v)] as const)),
    );
  }
  return value;
}

export async function fingerprintOf(
  method: string,
  path: string,
  query: Readonly<Record<string, string>>,
  body: WireBody,
): Promise<string> {
  const text = JSON.stringify([method, path, await canonical(query), await canonical(body)]);
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * Whether a request matches a stored fingerprint. Keys stored before fingerprints (by method
 * and path) still answer a repeat of their request across the upgrade.
 */
export function sameRequest(stored: string, fingerprint: string, methodPath: string): boolean {
  return stored.startsWith('sha256:') ? stored === fingerprint : stored === methodPath;
}
