/**
 * Signing in without the server, as an administrator who has signed in on this device before.
 * A sign-in the server accepted keeps a verifier of the password (verifier.ts); offline, or
 * with the server out of reach, the password typed is derived the same way and compared,
 * wrong passwords are limited as the server limits them (contract/sign-in-limits.ts), and the
 * local data and the administrator's queued changes open. The password stays in this window's
 * memory only, to renew the server's session once it can be reached; a refusal then ends the
 * offline session's hope (the banner asks for the password) and forgets the verifier, which
 * no longer matches what the server knows.
 */

import { ACCOUNT_TEXT } from '../../contract/accounts/admins-api';
import {
  lockSeconds,
  ONE_ACCOUNT_ONE_PLACE,
  TOO_MANY_ATTEMPTS,
  tooManyAttempts,
  WRONG_PASSWORD,
} from '../../contract/accounts/sign-in-limits';
import { patchSyncState, readSyncState } from '../../db/meta';
import { forgetVerifier, readVerifier, writeVerifier } from '../../db/offline-verifiers';
import { failAuthorsWaiting } from '../../db/outbox/queue-actions';
import type { SignInResult } from '../../sync/api/sign-in-requests';
import { requestSync, syncOnRequest } from '../sync-runner';
import { db } from '../window-context';
import { makeVerifier, matchesVerifier } from './verifier';

export type OfflineSignIn = { ok: true } | { ok: false; message: string; network: boolean };

/** After a sign-in the server accepted: the verifier for the next offline one (replaced each time). */
export async function keepVerifier(username: string, password: string): Promise<void> {
  await writeVerifier(db, username, { ...(await makeVerifier(password)), failures: 0, lockedUntil: 0 });
}

/**
 * After the server refused a password: a wrong or disabled account is not let in offline either.
 * A disabled account's waiting changes can never be sent under its name: they show as failed
 * with the server's words, to be saved to a file, discarded, or retried once it is enabled.
 */
export async function refusedByServer(username: string, message: string | null): Promise<void> {
  if (message?.startsWith(TOO_MANY_ATTEMPTS)) return;
  await forgetVerifier(db, username);
  if (message === ACCOUNT_TEXT.disabled) await failAuthorsWaiting(db, username, message);
}

/** Asks the server for a session (sign-in-out.ts passes it: this module is loaded on demand). */
export type ServerSignIn = (username: string, password: string) => Promise<SignInResult>;

export async function signInOffline(
  username: string,
  password: string,
  serverSignIn: ServerSignIn,
  now = Date.now(),
): Promise<OfflineSignIn> {
  const stored = await readVerifier(db, username);
  // Nothing to compare with: the spec's network error stands.
  if (!stored) return { ok: false, message: '', network: true };
  if (stored.lockedUntil > now)
    return {
      ok: false,
      message: tooManyAttempts(Math.ceil((stored.lockedUntil - now) / 1000)),
      network: false,
    };
  if (!(await matchesVerifier(password, stored))) {
    const failures = stored.failures + 1;
    const beyond = failures - ONE_ACCOUNT_ONE_PLACE.free;
    const lockedUntil = beyond > 0 ? now + lockSeconds(ONE_ACCOUNT_ONE_PLACE, beyond) * 1000 : 0;
    await writeVerifier(db, username, { ...stored, failures, lockedUntil });
    return { ok: false, message: WRONG_PASSWORD, network: false };
  }
  if (stored.failures > 0) await writeVerifier(db, username, { ...stored, failures: 0, lockedUntil: 0 });
  renewWhenReachable(username, password, serverSignIn);
  return { ok: true };
}

/** How often the server is tried again while it cannot be reached. */
const RETRY_MS = 30_000;
let renewal: {
  username: string;
  password: string;
  serverSignIn: ServerSignIn;
  timer: ReturnType<typeof setTimeout> | null;
} | null = null;

function renewWhenReachable(username: string, password: string, serverSignIn: ServerSignIn): void {
  stopRenewal();
  renewal = { username, password, serverSignIn, timer: null };
  window.addEventListener('online', renewNow);
  void renewNow();
}

/** Signing out, or another sign-in: the kept password goes. */
export function stopRenewal(): void {
  if (renewal?.timer) clearTimeout(renewal.timer);
  renewal = null;
  window.removeEventListener('online', renewNow);
}

async function renewNow(): Promise<void> {
  const current = renewal;
  if (!current) return;
  if (current.timer) clearTimeout(current.timer);
  current.timer = null;
  const result = navigator.onLine
    ? await current.serverSignIn(current.username, current.password)
    : ({ ok: false, message: null, network: true } as const);
  if (renewal !== current) return;
  if (!result.ok && result.network) {
    current.timer = setTimeout(() => void renewNow(), RETRY_MS);
    return;
  }
  stopRenewal();
  if (result.ok) await resumeQueue();
  else {
    await refusedByServer(current.username, result.message);
    await patchSyncState(db, { authRequired: true });
  }
}

/**
 * The queue goes on under the new session. A round begun before it may still end on a 401 and
 * pause the queue again: that round is waited for, and such a stale pause lifted once.
 */
async function resumeQueue(): Promise<void> {
  await patchSyncState(db, { authRequired: false });
  await syncOnRequest();
  if ((await readSyncState(db)).authRequired) {
    await patchSyncState(db, { authRequired: false });
    void requestSync();
  }
}

/** Whether this administrator can sign in on this device without the server. */
export async function canSignInOffline(username: string): Promise<boolean> {
  return (await readVerifier(db, username)) !== null;
}

/** The administrator's choice after signing out: this device no longer lets them in offline. */
export async function forgetOfflineSignIn(username: string): Promise<void> {
  await forgetVerifier(db, username);
}
