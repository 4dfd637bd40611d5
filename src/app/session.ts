/**
 * The browser-side session of spec §2: isAuthenticated and username in local storage. The
 * guard reads the flag; the server's HttpOnly cookie is what really authorises requests.
 */
import type { Role } from '../contract/accounts/roles';
import { SIGNED_IN_FLAG as FLAG, START_SNAPSHOT_PREFIX } from './start-route';

const USER = 'username';
/**
 * The role as this window last knew it, read synchronously for the first paint of menus and
 * buttons; the meta table (db/meta.ts) is the truth, which pulls update (ui/role.ts follows it).
 */
const ROLE = 'role';

export function isSignedIn(): boolean {
  return localStorage.getItem(FLAG) === 'true';
}

export function signedInUser(): string | null {
  return localStorage.getItem(USER);
}

/**
 * Drops the start snapshots (start-snapshot.ts): at sign-in and sign-out (they are one
 * administrator's), and when a list's rows change (window-sync.ts).
 */
export function forgetStartSnapshots(): void {
  for (const key of Object.keys(localStorage))
    if (key.startsWith(START_SNAPSHOT_PREFIX)) localStorage.removeItem(key);
}

export function rememberSignIn(username: string, role: Role): void {
  forgetStartSnapshots();
  localStorage.setItem(FLAG, 'true');
  localStorage.setItem(USER, username);
  localStorage.setItem(ROLE, role);
  window.dispatchEvent(new Event('session-changed'));
}

export function forgetSignIn(): void {
  forgetStartSnapshots();
  localStorage.removeItem(FLAG);
  localStorage.removeItem(USER);
  localStorage.removeItem(ROLE);
  window.dispatchEvent(new Event('session-changed'));
}

/**
 * Set at sign-out for an administrator this device can let in offline, so that the sign-in
 * page offers to forget that (app/offline-sign-in); cleared by a sign-in or the choice.
 */
const FORGET_OFFER = 'offlineSignInOffer';

export function offerToForget(username: string | null): void {
  if (username) sessionStorage.setItem(FORGET_OFFER, username);
  else sessionStorage.removeItem(FORGET_OFFER);
}

export const forgetOffered = (): string | null => sessionStorage.getItem(FORGET_OFFER);

/**
 * The role last known in this window; Owner (FIRST_ROLE) when none was ever told, as by a
 * server without roles. Only rememberSignIn and noteRole write it, each a checked role.
 */
export function knownRole(): Role {
  return (localStorage.getItem(ROLE) as Role | null) ?? 'Owner';
}

/** The meta table told a newer role (a pull): later first paints start from it. */
export function noteRole(role: Role): void {
  localStorage.setItem(ROLE, role);
}
