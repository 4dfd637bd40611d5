/**
 * Server-side sessions. The cookie holds a random 32-byte token; the table holds only its
 * sha256, so reading the table does not let anyone sign in.
 *
 * A session ends after `idleSeconds` without a request, and `maxSeconds` after sign-in
 * whatever happens (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). Each row carries its own
 * limits, fixed when it was created, so the check needs no configuration. Times come from
 * this process's clock (not the database's), so that every check of one request agrees.
 * A process keeps what it read for a while (session-cache.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../../src/contract/accounts/roles';
import type { Query } from '../db';
import { forgetSessions, type SessionCache, type SessionRow } from './session-cache';

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

/**
 * Two hours idle, twelve hours at most. An administrator on a tablet moves between this app,
 * meetings and classes; signing in again on a touch keyboard every half hour would be a
 * burden, while a tablet left on a desk should not stay signed in overnight. Twelve hours
 * covers a working day (and is NIST SP 800-63B's limit for re-authentication). An expiry
 * costs nothing but the password: queued changes wait and go out after the next sign-in.
 */
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleSeconds: 2 * 60 * 60, maxSeconds: 12 * 60 * 60 };

/** last_seen_at is written at most this often: a read should not cost a write each time. */
const TOUCH_EVERY_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** Creates a session and returns the token for the cookie. */
export async function createSession(
  q: Query,
  adminId: number,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  // Ended sessions are swept here: sign-ins are rare, so this costs nothing noticeable.
  await q(
    `DELETE FROM sessions
     WHERE expires_at <= $1::timestamptz OR last_seen_at + make_interval(secs => idle_seconds) <= $1::timestamptz`,
    [iso(now)],
  );
  await q(
    `INSERT INTO sessions (token_hash, admin_id, created_at, last_seen_at, idle_seconds, expires_at)
     VALUES ($1, $2, $3::timestamptz, $3::timestamptz, $4, $5::timestamptz)`,
    [hashToken(token), adminId, iso(now), policy.idleSeconds, iso(now + policy.maxSeconds * 1000)],
  );
  return token;
}

/**
 * The session's row while it holds (not expired, not idle too long), with its administrator's
 * role. A Disabled administrator's sessions are deleted when they are disabled; the join on
 * the status also refuses one that a concurrent request created in the meantime.
 */
async function currentSession(q: Query, tokenHash: string, now: number): Promise<SessionRow | undefined> {
  const [row] = await q<{
    admin_id: number;
    role: Role;
    last_seen_at: Date | string;
    idle_seconds: number;
    expires_at: Date | string;
  }>(
    `SELECT s.admin_id, a.role, s.last_seen_at, s.idle_seconds, s.expires_at
     FROM sessions s JOIN admins a ON a.id = s.admin_id
     WHERE s.token_hash = $1 AND s.expires_at > $2::timestamptz
       AND s.last_seen_at + make_interval(secs => s.idle_seconds) > $2::timestamptz
       AND a.status = 'Enabled'`,
    [tokenHash, iso(now)],
  );
  return (
    row && {
      adminId: row.admin_id,
      role: row.role,
      lastSeenMs: new Date(row.last_seen_at).getTime(),
      idleSeconds: row.idle_seconds,
      expiresMs: new Date(row.expires_at).getTime(),
    }
  );
}

/**
 * Whether the session still holds, without counting this as its use: a long-lived request
 * (the live stream) asks now and then, and must not keep an idle session alive by asking.
 */
export async function sessionHolds(q: Query, token: string): Promise<boolean> {
  return (await currentSession(q, hashToken(token), Date.now())) !== undefined;
}

/** Who holds a session: the administrator and their role as they are now. */
export interface SessionHolder {
  adminId: number;
  role: Role;
}

const dueForTouch = (row: SessionRow, now: number) => now - row.lastSeenMs >= TOUCH_EVERY_MS;
const holdsAt = (row: SessionRow, now: number) =>
  row.expiresMs > now && row.lastSeenMs + row.idleSeconds * 1000 > now;

/**
 * The signed-in admin and their role, or null when the token is unknown or its session has
 * ended: from `cache` while it may be trusted and the session needs no touch, else read (and
 * touched when due) and kept.
 */
export async function findSession(
  q: Query,
  token: string,
  cache?: SessionCache,
): Promise<SessionHolder | null> {
  const now = Date.now();
  const tokenHash = hashToken(token);
  const kept = cache?.get(tokenHash, now);
  if (kept && holdsAt(kept, now) && !dueForTouch(kept, now))
    return { adminId: kept.adminId, role: kept.role };
  const generationAtRead = cache?.readGeneration() ?? 0;
  const row = await currentSession(q, tokenHash, now);
  if (!row) return null;
  if (dueForTouch(row, now)) {
    await q('UPDATE sessions SET last_seen_at = $2::timestamptz WHERE token_hash = $1', [
      tokenHash,
      iso(now),
    ]);
    row.lastSeenMs = now;
  }
  cache?.keep(tokenHash, row, generationAtRead, now);
  return { adminId: row.adminId, role: row.role };
}

/**
 * Ends every session of `adminId` but the one of `keepToken` (a password changed, an account
 * disabled). It runs inside the caller's transaction: the caller forgets the kept sessions once
 * it committed (session-cache.ts), as a forgetting before the commit could be undone by a read.
 */
export async function endSessionsOf(q: Query, adminId: number, keepToken?: string): Promise<void> {
  await q('DELETE FROM sessions WHERE admin_id = $1 AND token_hash <> $2', [
    adminId,
    keepToken === undefined ? '' : hashToken(keepToken),
  ]);
}

export async function endSession(q: Query, token: string): Promise<void> {
  await q('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
  forgetSessions();
}
