/**
 * Sync now and Retry, with an answer the administrator can see: what was sent, or why nothing
 * could be (offline, server unreachable, signed out). Loaded with the outbox screen.
 */
import { readSyncState } from '../../db/meta';
import { makeWaitingDue, retryEntry } from '../../db/outbox/queue-actions';
import { isSignedIn } from '../session';
import { syncOnRequest } from '../sync-runner';
import { readQueueCounts } from '../sync-status/queue-summary';
import { connectionOf } from '../sync-status/status-words';
import { db } from '../window-context';

export type SendOutcome =
  | { kind: 'offline' }
  | { kind: 'signed-out' }
  | { kind: 'unreachable'; waiting: number }
  /** The round ran: how many changes left, and what is still there. */
  | { kind: 'done'; sent: number; waiting: number; failed: number };

async function blocked(): Promise<SendOutcome | null> {
  if (!navigator.onLine) return { kind: 'offline' };
  if (!isSignedIn() || (await readSyncState(db)).authRequired) return { kind: 'signed-out' };
  return null;
}

async function run(): Promise<SendOutcome> {
  const report = await syncOnRequest();
  const counts = await readQueueCounts();
  const connection = connectionOf(navigator.onLine, await readSyncState(db));
  if (connection === 'offline' || report?.replay.offline) return { kind: 'offline' };
  if (connection === 'signed-out' || report?.replay.paused) return { kind: 'signed-out' };
  // Replay retries what it could not deliver; pull says whether the server answered at all.
  if (report === null || connection === 'unreachable')
    return { kind: 'unreachable', waiting: counts.waiting };
  return { kind: 'done', sent: report.replay.sent, ...counts };
}

/** Sends every waiting change now, whatever backoff it was given. */
export async function sendNow(): Promise<SendOutcome> {
  const stop = await blocked();
  if (stop) return stop;
  await makeWaitingDue(db);
  return run();
}

export type RetryOutcome = SendOutcome & {
  /** Where the retried change stands after the round. */
  change: 'sent' | 'failed' | 'waiting';
  /** The server's reason when it refused it again. */
  reason?: string | null;
};

/** Sends one change again now (a refused one under a new key: rule 4). */
export async function retryAndSend(seq: number): Promise<RetryOutcome> {
  await retryEntry(db, seq);
  const outcome = (await blocked()) ?? (await run());
  const entry = await db.outbox.get(seq);
  if (!entry) return { ...outcome, change: 'sent' };
  if (entry.status === 'failed' || entry.status === 'conflict')
    return { ...outcome, change: 'failed', reason: entry.lastError };
  return { ...outcome, change: 'waiting' };
}
