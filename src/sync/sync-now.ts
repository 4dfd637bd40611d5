/**
 * One sync round: send what waits, then bring the local store up to date. Callers: the
 * service worker's 'sync' event, and in the window sign-in, start, reconnect, focus and a
 * timer (scheduler.ts).
 *
 * A pull that reached the server shows it answers again: changes that waited for it
 * (their last attempt got no answer) are made due and sent at once (recovery.ts).
 */

import { type PullResult, pull } from './pull/pull';
import { awaitServer, networkWaitsDue } from './recovery';
import { type ReplayReport, replay } from './replay';
import type { SyncContext } from './sync-context';

export interface SyncReport {
  replay: ReplayReport;
  pull: PullResult | null;
}

export async function syncNow(ctx: SyncContext): Promise<SyncReport> {
  const replayed = await replay(ctx);
  if (replayed.paused || replayed.offline) return { replay: replayed, pull: null };
  const pulled = await pull(ctx);
  const answered = pulled.ok || pulled.reason !== 'unreachable';
  // Only when something that could not reach the server still waits (another replayer may
  // have sent it during the pull).
  if (!answered || replayed.unreachable === 0 || (await networkWaitsDue(ctx.db)) === 0)
    return { replay: replayed, pull: pulled };
  return { replay: await replay(ctx), pull: pulled };
}

export interface BackgroundSyncOptions {
  probeEveryMs: number;
  /** How long to probe a server that could not be reached before giving up. */
  probeForMs: number;
}

/**
 * A round for a sync event with no scheduler of its own (the service worker's Background
 * Sync), which the browser may fire on its own view of the network: null when the context
 * was offline (`ctx.online`), having claimed nothing. When the server could not be reached,
 * probes it for a while and sends again as soon as it answers.
 */
export async function syncWhenOnline(
  ctx: SyncContext,
  options: BackgroundSyncOptions,
): Promise<SyncReport | null> {
  const report = await syncNow(ctx);
  if (report.replay.offline) return null;
  if (report.replay.paused || report.replay.unreachable === 0) return report;
  const answered = await awaitServer(ctx, {
    everyMs: () => options.probeEveryMs,
    limitMs: options.probeForMs,
    canProbe: ctx.online,
  });
  if (!answered) return report;
  const again = await syncNow(ctx);
  return again.replay.offline ? null : again;
}
