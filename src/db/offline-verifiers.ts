/**
 * What this device keeps to let an administrator sign in without the server: per username, a
 * verifier derived from the password with a slow key-derivation function and its salt (never
 * the password, never the server's hash; app/offline-sign-in), and the wrong attempts counted
 * here. Kept in the meta table with the local data it opens.
 */
import type { LocalDb } from './database';

export interface OfflineVerifier {
  /** Base64 of the random salt and of the derived bits. */
  salt: string;
  verifier: string;
  iterations: number;
  /** Wrong passwords typed offline since the last right one. */
  failures: number;
  /** Until when (ms since the epoch) even the right password is refused; 0: not locked. */
  lockedUntil: number;
}

const KEY = 'offlineSignIn';

async function readAll(db: LocalDb): Promise<Record<string, OfflineVerifier>> {
  const rec = await db.meta.get(KEY);
  return (rec?.value as Record<string, OfflineVerifier> | undefined) ?? {};
}

export async function readVerifier(db: LocalDb, username: string): Promise<OfflineVerifier | null> {
  return (await readAll(db))[username] ?? null;
}

export async function writeVerifier(db: LocalDb, username: string, verifier: OfflineVerifier): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    await db.meta.put({ key: KEY, value: { ...(await readAll(db)), [username]: verifier } });
  });
}

export async function forgetVerifier(db: LocalDb, username: string): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const { [username]: _gone, ...rest } = await readAll(db);
    await db.meta.put({ key: KEY, value: rest });
  });
}
