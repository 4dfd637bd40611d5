/**
 * The sessions this process checked lately, so that a request does not read its session and
 * its administrator again: on PGlite that read is about a seventh of a single write's cost.
 *
 * What could make a kept answer wrong changes rows whose triggers notify channel `sessions`
 * (migration 024): a session ended (signed out, swept, a password changed, an account
 * disabled) or an administrator's role or status changed. Every process forgets all it keeps
 * when it hears that, and the process that made the change forgets at once as well
 * (`forgetSessions`), since PostgreSQL tells its own listener only a moment after the commit.
 * A kept answer is trusted for TRUST_MS at most: the bound should a notification be missed
 * while the listening connection is down (made again, it forgets everything too).
 *
 * The idle and absolute limits are checked against the kept times; a session due for its
 * touch (sessions.ts) is read again, which writes the touch.
 */
import type { Role } from '../../src/contract/accounts/roles';
import type { Database } from '../db';

const SESSIONS_CHANNEL = 'sessions';
const TRUST_MS = 30_000;
/** More sessions than a publisher has administrators' tablets: past it, start again. */
const MAX_KEPT = 10_000;

/** A session's row as read, with its administrator's role. */
export interface SessionRow {
  adminId: number;
  role: Role;
  lastSeenMs: number;
  idleSeconds: number;
  expiresMs: number;
}

interface Kept extends SessionRow {
  readAtMs: number;
  generation: number;
}

/** Moves on each forgetting: an answer read before it is not kept, however late it arrives. */
let generation = 0;

/** Every cache of this process forgets what it keeps (a session ended or an account changed here). */
export function forgetSessions(): void {
  generation += 1;
}

export interface SessionCache {
  /** The kept row of the session whose token hashes to `tokenHash`, if it may be trusted at `now`. */
  get(tokenHash: string, now: number): SessionRow | undefined;
  /** Keeps a row read from the database since `generationAtRead` (`readGeneration()` before reading). */
  keep(tokenHash: string, row: SessionRow, generationAtRead: number, now: number): void;
  readGeneration(): number;
  close(): Promise<void>;
}

export async function openSessionCache(db: Database): Promise<SessionCache> {
  const kept = new Map<string, Kept>();
  const stop = await db.listen(SESSIONS_CHANNEL, forgetSessions);
  return {
    get(tokenHash, now) {
      const row = kept.get(tokenHash);
      if (!row) return undefined;
      const trusted = row.generation === generation && now - row.readAtMs < TRUST_MS;
      if (trusted) return row;
      kept.delete(tokenHash);
      return undefined;
    },
    keep(tokenHash, row, generationAtRead, now) {
      if (generationAtRead !== generation) return;
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(tokenHash, { ...row, readAtMs: now, generation });
    },
    readGeneration: () => generation,
    async close() {
      kept.clear();
      await stop();
    },
  };
}
