/** What one replay did, for its caller (the sync runner schedules the next retry from it). */
import { lowest } from '../contract/extremes';
import type { LocalDb } from '../db/database';
import { waitsForServer } from './recovery';
import type { SendResult } from './settle';

export interface ReplayReport {
  sent: number;
  /** Refused by the server, or held for the administrator by a conflict. */
  failed: number;
  /** Entries still waiting for a retry. */
  waiting: number;
  /**
   * Of those, the ones whose last attempt got no answer from the server: they go as soon as
   * it answers again (recovery.ts), so the runner probes it meanwhile.
   */
  unreachable: number;
  /**
   * Entries of other administrators, and those waiting behind them: they wait for that
   * author to sign in, and are not retried before.
   */
  held: number;
  /** The server asked for a new sign-in; nothing more is sent until then. */
  paused: boolean;
  /** This context had no network: nothing more was claimed; going online brings the next run. */
  offline: boolean;
  /** When the earliest waiting entry may be retried (epoch ms), if any. */
  nextAttemptAt: number | null;
}

export const emptyReport = (): ReplayReport => ({
  sent: 0,
  failed: 0,
  waiting: 0,
  unreachable: 0,
  held: 0,
  paused: false,
  offline: false,
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

/**
 * Adds what still waits and when the earliest of it may go; entries on hold for another
 * administrator (plan.ts) are counted apart, as nothing will send them before their author
 * signs in.
 */
export async function finishReport(
  db: LocalDb,
  report: ReplayReport,
  onHold: ReadonlySet<number> = new Set(),
): Promise<ReplayReport> {
  const pending = await db.outbox.where('status').equals('pending').toArray();
  const waiting = pending.filter((e) => !onHold.has(e.seq));
  report.held = pending.length - waiting.length;
  report.waiting = waiting.length;
  const now = Date.now();
  report.unreachable = waiting.filter((e) => waitsForServer(e, now)).length;
  if (waiting.length > 0)
    report.nextAttemptAt = lowest([...waiting.map((e) => e.nextAttemptAt), report.nextAttemptAt ?? Infinity]);
  return report;
}
