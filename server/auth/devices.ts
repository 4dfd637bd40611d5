/**
 * Devices that signed in to an account before (OWASP's "device cookies"): after a successful
 * sign-in the browser keeps a random token in an HttpOnly cookie sent only to the sign-in
 * endpoints; the table keeps its sha256 per account. Such a device is throttled on its own
 * failures only (server/auth/throttle.ts), so an attack on the account from elsewhere never
 * locks out the administrator's own tablet.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Query } from '../db';

/** A year: a tablet used now and then should stay known. */
export const DEVICE_DAYS = 365;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const isToken = (value: string | undefined): value is string => !!value && /^[A-Za-z0-9_-]{43}$/.test(value);

/** Whether `token` belongs to a device that signed in to `username` before. */
export async function isKnownDevice(q: Query, token: string | undefined, username: string): Promise<boolean> {
  if (!isToken(token)) return false;
  const rows = await q(
    `SELECT 1 FROM known_devices d JOIN admins a ON a.id = d.admin_id
     WHERE d.token_hash = $1 AND a.username = $2 AND d.expires_at > $3::timestamptz`,
    [hashToken(token), username, new Date().toISOString()],
  );
  return rows.length > 0;
}

/**
 * Records the device after a successful sign-in and returns the token for its cookie: the
 * same one when it is known for this account already, otherwise a fresh one (a token planted
 * in the browser by someone else must not become known).
 */
export async function rememberDevice(
  q: Query,
  token: string | undefined,
  adminId: number,
  known: boolean,
): Promise<string> {
  const kept = known && isToken(token) ? token : randomBytes(32).toString('base64url');
  const now = Date.now();
  await q('DELETE FROM known_devices WHERE expires_at <= $1::timestamptz', [new Date(now).toISOString()]);
  await q(
    `INSERT INTO known_devices (token_hash, admin_id, expires_at) VALUES ($1, $2, $3::timestamptz)
     ON CONFLICT (token_hash, admin_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [hashToken(kept), adminId, new Date(now + DEVICE_DAYS * 86_400_000).toISOString()],
  );
  return kept;
}
