/** What one replay did, for its caller (the sync runner schedules the next retry from it). */
import type { LocalDb } from '../db/database';
import type { SendResult } from './settle';

export interface ReplayReport {
  sent: number;
  /** Refused by the server, or held for the administrator by a conflict. */
  failed: number;
  /** Entries still waiting for a retry. */
  waiting: number;
  /** The server asked for a new sign-in; nothing more is sent until then. */
  paused: boolean;
  /** When the earliest waiting entry may be retried (epoch ms), if any. */
  nextAttemptAt: number | null;
}

export const emptyReport = (): ReplayReport => ({
  sent: 0,
  failed: 0,
  waiting: 0,
  paused: false,
  nextAttemptAt: null,
});

/** Counts a round's results. */
export function tally(report: ReplayReport, results: ReadonlyMap<number, SendResult>): void {
  for (const result of results.values()) {
    if (result === 'sent') report.sent += 1;
    else if (result === 'failed' || result === 'conflict') report.failed += 1;
    else if (result === 'auth') report.paused = true;
  }
}

/** Adds what still waits and when the earliest of it may go. */
export async function finishReport(db: LocalDb, report: ReplayReport): Promise<ReplayReport> {
  const waiting = await db.outbox.where('status').equals('pending').toArray();
  report.waiting = waiting.length;
  // A loop, not Math.min(...spread): a long queue would overflow the call's arguments.
  for (const e of waiting)
    report.nextAttemptAt = Math.min(report.nextAttemptAt ?? e.nextAttemptAt, e.nextAttemptAt);
  return report;
}
