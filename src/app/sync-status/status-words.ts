/**
 * The state of sending, in the administrator's words. The top bar tells apart: no network,
 * a network but no server, a session the server ended, and a connection that works. Technical
 * errors ('Failed to fetch', an exception's text) are never shown as they are: each becomes a
 * plain sentence (plain-error.ts), and the outbox screen offers the original as technical detail.
 * Kept small: the top bar is on every screen's first load.
 */
import type { SyncState } from '../../db/meta';

export type Connection = 'offline' | 'unreachable' | 'signed-out' | 'problem' | 'online';

/** Replies that mean the server could not be reached or could not answer now (rule 4's retries). */
export const UNREACHABLE =
  /failed to fetch|network ?error|load failed|fetch failed|timed? ?out|timeout|aborted|econn|enotfound|the server answered (5\d\d|408|429)/i;

export function connectionOf(online: boolean, state: SyncState | undefined): Connection {
  if (!online) return 'offline';
  if (state?.authRequired) return 'signed-out';
  if (state?.lastError) return UNREACHABLE.test(state.lastError) ? 'unreachable' : 'problem';
  return 'online';
}

export const CONNECTION_LABEL: Record<Connection, string> = {
  offline: 'Offline',
  unreachable: 'Server unreachable',
  'signed-out': 'Signed out',
  problem: 'Sync problem',
  online: 'Online',
};

/** A list by its local table, as the administrator calls it: 'book_pages' → 'Book pages'. */
export function listName(table: string): string {
  const words = table.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const count = new Intl.NumberFormat('en');

/** Rows received of a list's total: 'Students 40,000 of 100,000'. */
export function progressText(table: string, p: { received: number; total: number }): string {
  return `${listName(table)} ${count.format(p.received)} of ${count.format(p.total)}`;
}

/**
 * The words the top bar shows for the state's parts (the whole sentence is the indicator's label
 * and title). The bar gives the state three short lines at a landscape tablet's width: beside two
 * other parts, a list being received (the part at `at`) shows as a share never rounded up to
 * done, 'Book pages 40%'; beside more, it is left to the label and the dashboard, so that the
 * connection and the changes waiting or failed always show whole.
 */
export function shownStatus(
  parts: readonly string[],
  at: number,
  receiving?: readonly [string, { received: number; total: number }],
): string {
  const shown = [...parts];
  if (receiving && parts.length > 3) {
    const [table, p] = receiving;
    shown.splice(
      at,
      1,
      ...(parts.length > 4 ? [] : [`${listName(table)} ${Math.floor((p.received / p.total) * 100)}%`]),
    );
  }
  return shown.join(' · ');
}
