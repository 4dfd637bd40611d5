/**
 * Claims left by a replayer that died mid-request (a tab closed, a page reloaded, a service
 * worker stopped while its request was out). The entry keeps the state 'sending' it was given
 * before its request left (rule 2), and a screen shows it as being sent: it cannot be edited
 * or discarded. Whoever holds the sync lock knows nobody is sending, so every 'sending' entry
 * is such a claim and goes back to waiting; its attempt stays counted, and its key makes a
 * resend take effect once.
 *
 * Each replayer does this when it takes the lock. Offline no replayer runs, so the window
 * also does it when the lock is free (at start and on its timer): an administrator who
 * reopens the app without a network can still edit or discard what was cut off.
 */
import type { LocalDb } from '../db/database';
import { SYNC_LOCK, tryWithLock } from './lock';

/** Call only while holding the sync lock. */
export function releaseDeadClaims(db: LocalDb): Promise<number> {
  return db.outbox.where('status').equals('sending').modify({ status: 'pending' });
}

/** Releases dead claims if no replayer holds the lock now; a live replayer keeps its own. */
export async function releaseDeadClaimsIfIdle(db: LocalDb): Promise<number> {
  return (await tryWithLock(SYNC_LOCK, () => releaseDeadClaims(db))) ?? 0;
}
