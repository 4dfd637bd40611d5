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
