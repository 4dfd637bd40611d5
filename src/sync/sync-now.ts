/**
 * One sync round: send what waits, then bring the local store up to date. Callers: the
 * service worker's 'sync' event, and in the window sign-in, start, reconnect, focus and a
 * timer (scheduler.ts).
 *
 * A pull that reached the server shows it answers again: changes that waited for it
 * (their last attempt got no answer) are made due and sent at once (recovery.ts).
 */

import { type PullResult, pull } from './pull/pull';
import { networkWaitsDue } from './recovery';
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
