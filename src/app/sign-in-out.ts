/** Sign-in and sign-out as the screens see them: server call, browser flag, queue resume. */

import { patchSyncState, writeSignedInUser } from '../db/meta';
import { signIn, signOut } from '../sync/api/sign-in-requests';
import { askPersistentStorage } from './saved-queue/persistent-storage';
import { forgetSignIn, rememberSignIn } from './session';
import { requestSync } from './sync-runner';
import { db, loadApi } from './window-context';

export type SignInOutcome = { ok: true } | { ok: false; message: string | null; network: boolean };

export async function signInAndResume(username: string, password: string): Promise<SignInOutcome> {
  const result = await signIn(await loadApi(), username, password);
  if (!result.ok) return result;
  rememberSignIn(username);
  askPersistentStorage();
  // Changes made from now on are this administrator's, and only theirs are sent under this session.
  await writeSignedInUser(db, username);
  // The queue may go on (it paused on a 401).
  await patchSyncState(db, { authRequired: false });
  void requestSync();
  // Location lists onto the device while online (failures are only logged, spec §8).
  // Loaded on demand: the sign-in screen's first load does not carry it.
  void import('./location-lists')
    .then(({ keepGeography }) => keepGeography())
    .catch((error) => console.warn('Geography not kept', error));
  return { ok: true };
}

/**
 * Ends the session. Local data and queued changes stay (rule 1): each change is sent when its
 * author signs in again, as only the author's own session may send it.
 */
export async function signOutEverywhere(): Promise<void> {
  forgetSignIn();
  // Their waiting changes stay, theirs: sent when they sign in again.
  await writeSignedInUser(db, null);
  if (navigator.onLine) await signOut(await loadApi()).catch(() => undefined);
}
