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
  if (replayed.paused) return { replay: replayed, pull: null };
  const pulled = await pull(ctx);
  const answered = pulled.ok || pulled.reason !== 'unreachable';
  // Only when something that could not reach the server still waits (another replayer may
  // have sent it during the pull).
  if (!answered || replayed.unreachable === 0 || (await networkWaitsDue(ctx.db)) === 0)
    return { replay: replayed, pull: pulled };
  return { replay: await replay(ctx), pull: pulled };
}

export interface BackgroundSyncOptions {
  /** The network as this context sees it (the browser may fire its event on its own view). */
  online: () => boolean;
  probeEveryMs: number;
  /** How long to probe a server that could not be reached before giving up. */
  probeForMs: number;
}

/**
 * A round for a sync event with no scheduler of its own (the service worker's Background
 * Sync): none while offline, since a change claimed counts as attempted (it may have reached
 * the server) and could then no longer be taken back, only reversed; null then. When the
 * server could not be reached, probes it for a while and sends again as soon as it answers.
 */
export async function syncWhenOnline(
  ctx: SyncContext,
  options: BackgroundSyncOptions,
): Promise<SyncReport | null> {
  if (!options.online()) return null;
  const report = await syncNow(ctx);
  if (report.replay.paused || report.replay.unreachable === 0) return report;
  const answered = await awaitServer(ctx, {
    everyMs: () => options.probeEveryMs,
    limitMs: options.probeForMs,
    canProbe: options.online,
  });
  return answered ? syncNow(ctx) : report;
}
