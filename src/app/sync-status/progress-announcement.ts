/**
 * What a screen reader hears of lists being received, through a polite live region
 * (src/ui/sync-status/SyncIndicator.tsx): when a list starts ('Receiving students: 0 of 100,000'), at most
 * every ANNOUNCE_EVERY_MS while it goes on, and when it is complete ('Students received'). The
 * pages of a first sync arrive every second or so; announcing each would leave a screen reader
 * no time for anything else.
 */
import type { ListProgress } from '../../db/meta';
import { listName, progressText } from './status-words';

export const ANNOUNCE_EVERY_MS = 15_000;

export interface AnnouncementState {
  /** Lists that were being received when last looked at. */
  lists: readonly string[];
  /** When the last announcement was made (ms). */
  at: number;
}

export const NO_ANNOUNCEMENT: AnnouncementState = { lists: [], at: 0 };

/** The next announcement (null: stay quiet) and the state to remember. */
export function progressAnnouncement(
  before: AnnouncementState,
  progress: readonly (readonly [table: string, ListProgress])[],
  now: number,
): { message: string | null; state: AnnouncementState } {
  const lists = progress.map(([table]) => table);
  const done = before.lists.filter((t) => !lists.includes(t));
  const started = progress.some(([table]) => !before.lists.includes(table));
  let message: string | null = null;
  if (done.length > 0) message = done.map((t) => `${listName(t)} received`).join('. ');
  if (progress.length > 0 && (started || now - before.at >= ANNOUNCE_EVERY_MS)) {
    const [table, p] = progress[0];
    message = [message, `Receiving ${progressText(table, p)}`].filter(Boolean).join('. ');
  }
  return { message, state: { lists, at: message === null ? before.at : now } };
}
