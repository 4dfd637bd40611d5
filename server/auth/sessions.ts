/**
 * Server-side sessions. The cookie holds a random 32-byte token; the table holds only its
 * sha256, so reading the table does not let anyone sign in.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Query } from '../db';

export const SESSION_DAYS = 30;
export const SESSION_SECONDS = SESSION_DAYS * 24 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session and returns the token for the cookie. */
export async function createSession(q: Query, adminId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Expired sessions are swept here: logins are rare, so this costs nothing noticeable.
  await q('DELETE FROM sessions WHERE expires_at <= now()');
  await q(
    `INSERT INTO sessions (token_hash, admin_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hashToken(token), adminId, SESSION_SECONDS],
  );
  return token;
}

/** The signed-in admin's id, or null when the token is unknown or expired. */
export async function findSession(q: Query, token: string): Promise<number | null> {
  const rows = await q<{ admin_id: number }>(
    'SELECT admin_id FROM sessions WHERE token_hash = $1 AND expires_at > now()',
    [hashToken(token)],
  );
  return rows[0]?.admin_id ?? null;
}

export async function endSession(q: Query, token: string): Promise<void> {
  await q('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
}
