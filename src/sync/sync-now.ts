/**
 * One sync round: send what waits, then bring the local store up to date. Callers: the
 * service worker's 'sync' event, and in the window sign-in, start, reconnect, focus and a
 * timer.
 */

import type { SyncContext } from './context';
import { type PullResult, pull } from './pull';
import { type ReplayReport, replay } from './replay';

export interface SyncReport {
  replay: ReplayReport;
  pull: PullResult | null;
}

export async function syncNow(ctx: SyncContext): Promise<SyncReport> {
  const replayed = await replay(ctx);
  if (replayed.paused) return { replay: replayed, pull: null };
  return { replay: replayed, pull: await pull(ctx) };
}
