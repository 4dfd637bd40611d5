/**
 * The signed-in role for the screens: the meta table followed live (a pull may change it
 * while a screen is open), and until it is read, what this window last knew (session.ts), so
 * the first paint of menus and buttons does not flash what the role cannot use.
 *
 * One live read serves every component that asks: a list's cells ask too (a status toggle per
 * row), and a live read each made every search keystroke open and close ten store reads.
 */
import { liveQuery, type Subscription } from 'dexie';
import { useSyncExternalStore } from 'react';
import { readRole } from '../app/accounts/signed-in-role';
import { knownRole, noteRole } from '../app/session';
import type { Role } from '../contract/accounts/roles';

/** The role last read; null until the first read, and once no component follows it. */
let read: Role | null = null;
let following: Subscription | null = null;
const listeners = new Set<() => void>();

function follow(listener: () => void): () => void {
  listeners.add(listener);
  // An async function, so that Dexie follows the reads behind it (live-query.ts).
  following ??= liveQuery(async () => readRole()).subscribe({
    next: (role) => {
      if (role === read) return;
      read = role;
      noteRole(role);
      for (const heard of listeners) heard();
    },
    error: (error) => console.warn('The signed-in role could not be read', error),
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    following?.unsubscribe();
    following = null;
    // Unfollowed, the role read may go stale: the next screen starts again from what is known.
    read = null;
  };
}

export function useRole(): Role {
  return useSyncExternalStore(follow, () => read) ?? knownRole();
}
