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

/** What every temporary id begins with (rekey.ts looks up rows naming any of them by it). */
export const TEMP_PREFIX = 'tmp-';

export function newTempId(): string {
  return TEMP_PREFIX + newUuid();
}

/** True for an id made on this device that the server has not named yet. */
export function isTempId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(TEMP_PREFIX);
}
