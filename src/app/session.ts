/**
 * The browser-side session of spec §2: isAuthenticated and username in local storage. The
 * guard reads the flag; the server's HttpOnly cookie is what really authorises requests.
 */
import { SIGNED_IN_FLAG as FLAG } from './start-route';

const USER = 'username';

export function isSignedIn(): boolean {
  return localStorage.getItem(FLAG) === 'true';
}

export function signedInUser(): string | null {
  return localStorage.getItem(USER);
}

export function rememberSignIn(username: string): void {
  localStorage.setItem(FLAG, 'true');
  localStorage.setItem(USER, username);
  window.dispatchEvent(new Event('session-changed'));
}

export function forgetSignIn(): void {
  localStorage.removeItem(FLAG);
  localStorage.removeItem(USER);
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
