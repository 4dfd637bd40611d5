/**
 * Sign-in and sign-out as the screens see them: server call, browser flag, queue resume. With
 * the server out of reach, an administrator who signed in on this device before signs in
 * against the verifier kept here (offline-sign-in/, loaded only then and after a sign-in).
 */

import type { Role } from '../contract/accounts/roles';
import { patchSyncState, readRoleOf, writeRoleOf, writeSignedInUser } from '../db/meta';
import { signIn, signOut } from '../sync/api/sign-in-requests';
import { askPersistentStorage } from './saved-queue/persistent-storage';
import { forgetSignIn, offerToForget, rememberSignIn } from './session';
import { requestSync } from './sync-runner';
import { db, loadApi } from './window-context';

export type SignInOutcome = { ok: true } | { ok: false; message: string | null; network: boolean };

const offlineSignIn = () => import('./offline-sign-in/offline-sign-in');

/** A sign-in the server accepted tells the role, kept for this username (offline sign-ins reuse it). */
const serverSignIn = async (username: string, password: string) => {
  const result = await signIn(await loadApi(), username, password);
  if (result.ok) await writeRoleOf(db, username, result.role);
  return result;
};

export async function signInAndResume(username: string, password: string): Promise<SignInOutcome> {
  const result = navigator.onLine
    ? await serverSignIn(username, password)
    : ({ ok: false, message: null, network: true } as const);
  if (!result.ok && result.network) {
    const offline = await (await offlineSignIn()).signInOffline(username, password, serverSignIn);
    if (!offline.ok) return offline;
    // The role this administrator had when last signed in here; the next pull brings any change.
    await startSession(username, await readRoleOf(db, username));
    return { ok: true };
  }
  if (!result.ok) {
    void offlineSignIn().then((m) => m.refusedByServer(username, result.message));
    return result;
  }
  await startSession(username, result.role);
  offerToForget(null);
  // The queue may go on (it paused on a 401).
  await patchSyncState(db, { authRequired: false });
  void requestSync();
  void offlineSignIn()
    .then((m) => m.keepVerifier(username, password))
    .catch((error) => console.warn('Offline sign-in not kept', error));
  // Location lists onto the device while online (failures are only logged, spec §8).
  // Loaded on demand: the sign-in screen's first load does not carry it.
  void import('./location-lists')
    .then(({ keepGeography }) => keepGeography())
    .catch((error) => console.warn('Geography not kept', error));
  return { ok: true };
}

async function startSession(username: string, role: Role): Promise<void> {
  rememberSignIn(username, role);
  askPersistentStorage();
  // Changes made from now on are this administrator's, and only theirs are sent under this session.
  await writeSignedInUser(db, username);
}

/**
 * Ends the session. Local data and queued changes stay (rule 1): each change is sent when its
 * author signs in again, as only the author's own session may send it.
 */
export async function signOutEverywhere(): Promise<void> {
  forgetSignIn();
  void offlineSignIn().then((m) => m.stopRenewal());
  // Their waiting changes stay, theirs: sent when they sign in again.
  await writeSignedInUser(db, null);
  if (navigator.onLine) await signOut(await loadApi()).catch(() => undefined);
}

/** The administrator's choice on the sign-in page: this device no longer lets them in offline. */
export async function forgetOfflineSignIn(username: string): Promise<void> {
  await (await offlineSignIn()).forgetOfflineSignIn(username);
  offerToForget(null);
}
