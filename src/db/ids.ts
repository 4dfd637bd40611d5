/**
 * Client-made ids. Records created on this device get a temporary id until the server
 * names them; outbox entries get an id that travels as the Idempotency-Key.
 * crypto.randomUUID exists only in secure contexts, so build a v4 UUID from
 * getRandomValues, which a tablet on plain http still has.
 */
export function newUuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What every temporary id begins with (db/outbox/rekey.ts looks up rows naming any of them by it). */
export const TEMP_PREFIX = 'tmp-';

/** The next temporary id's sequence; null until the first one is made. */
let nextSequence: number | null = null;

/**
 * A temporary id, `tmp-<sequence>-<16 hex digits>`. The sequence counts up by one per id from
 * the clock's milliseconds when this page (or worker) made its first one, so ids made one after
 * another (an import's 10,000 rows, a session's new records) follow each other and fall into a
 * few chunks of the list index (list-index/chunk.ts `chunkOf`), as server ids do. The 64 random
 * bits keep ids unique where sequences meet: two tablets, two page loads, a saved queue loaded
 * on another device (db/saved-queue/gather-and-load.ts). Ids of the former shape, `tmp-<uuid v4>`, stay
 * valid.
 */
export function newTempId(): string {
  nextSequence ??= Date.now();
  const b = crypto.getRandomValues(new Uint8Array(8));
  let random = '';
  for (const x of b) random += x.toString(16).padStart(2, '0');
  return `${TEMP_PREFIX}${nextSequence++}-${random}`;
}

const SEQUENCED = new RegExp(`^${TEMP_PREFIX}(\\d{1,15})-[0-9a-f]{16}$`);

/** The sequence of a temporary id of the current shape, or null (a server id, a former temporary id). */
export function tempSequence(id: string): number | null {
  const m = SEQUENCED.exec(id);
  return m ? Number(m[1]) : null;
}

/** True for an id made on this device that the server has not named yet. */
export function isTempId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(TEMP_PREFIX);
}
