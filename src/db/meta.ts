/** Small typed values kept in the meta table, shared by the window and the service worker. */
import type { Role } from '../contract/accounts/roles';
import type { LocalDb } from './database';

export interface SyncState {
  /** The server answered 401: replay waits until the administrator signs in again. */
  authRequired: boolean;
  /** A replay or pull is running somewhere (window or worker). */
  syncing: boolean;
  /** Last error of a pull or replay that could not reach the server. */
  lastError: string | null;
  lastSyncedAt: number | null;
}

const SYNC_STATE = 'syncState';
export const INITIAL_SYNC_STATE: SyncState = {
  authRequired: false,
  syncing: false,
  lastError: null,
  lastSyncedAt: null,
};

export async function readSyncState(db: LocalDb): Promise<SyncState> {
  const rec = await db.meta.get(SYNC_STATE);
  return { ...INITIAL_SYNC_STATE, ...(rec?.value as Partial<SyncState> | undefined) };
}

export async function patchSyncState(db: LocalDb, patch: Partial<SyncState>): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const current = await readSyncState(db);
    await db.meta.put({ key: SYNC_STATE, value: { ...current, ...patch } });
  });
}

const cursorKey = (table: string) => `cursor:${table}`;

export async function readCursor(db: LocalDb, table: string): Promise<string | null> {
  const rec = await db.meta.get(cursorKey(table));
  return typeof rec?.value === 'string' ? rec.value : null;
}

/** Every list's delta cursor, by local table, in one read (a pull of every list asks for all). */
export async function readCursors(db: LocalDb): Promise<Record<string, string>> {
  const recs = await db.meta.where('key').startsWith(cursorKey('')).toArray();
  return Object.fromEntries(
    recs
      .filter((r) => typeof r.value === 'string')
      .map((r) => [r.key.slice(cursorKey('').length), r.value as string]),
  );
}

export async function writeCursor(db: LocalDb, table: string, cursor: string | null): Promise<void> {
  if (cursor === null) await db.meta.delete(cursorKey(table));
  else await db.meta.put({ key: cursorKey(table), value: cursor });
}

/**
 * The administrator signed in on this device (the username that last signed in), kept with
 * the local data so that every outbox entry is stamped with its author inside mutate's
 * transaction and replay (window or worker) sends only the current administrator's changes.
 * Null once they signed out.
 */
const SIGNED_IN_USER = 'signedInUser';

export async function readSignedInUser(db: LocalDb): Promise<string | null> {
  const rec = await db.meta.get(SIGNED_IN_USER);
  return typeof rec?.value === 'string' ? rec.value : null;
}

export async function writeSignedInUser(db: LocalDb, username: string | null): Promise<void> {
  if (username === null) await db.meta.delete(SIGNED_IN_USER);
  else await db.meta.put({ key: SIGNED_IN_USER, value: username });
}

/**
 * A list being received: rows received of the list's total, for the top bar and the
 * dashboard wherever the pull runs (window or service worker). Written in the transaction that
 * writes the rows, with the cursor they lead to, so that a pull interrupted (reload, network
 * lost, signed out) and resumed goes on counting from where it stopped; removed when the list
 * is complete. A pull that fits one page keeps none.
 */
export interface ListProgress {
  /** Rows (and deletions) received and written so far. */
  received: number;
  /** What the whole pull holds: received plus what the server said remained. */
  total: number;
  /** The cursor the received rows lead to; null for a whole list (legacy server). */
  cursor: string | null;
}

const PROGRESS_PREFIX = 'progress:';

export async function readListProgress(db: LocalDb, table: string): Promise<ListProgress | null> {
  const rec = await db.meta.get(`${PROGRESS_PREFIX}${table}`);
  return (rec?.value as ListProgress | undefined) ?? null;
}

export async function writeListProgress(db: LocalDb, table: string, progress: ListProgress | null) {
  if (progress === null) await db.meta.delete(`${PROGRESS_PREFIX}${table}`);
  else await db.meta.put({ key: `${PROGRESS_PREFIX}${table}`, value: progress });
}

/** Every list being received, by local table. */
export async function readPullProgress(db: LocalDb): Promise<Record<string, ListProgress>> {
  const recs = await db.meta.where('key').startsWith(PROGRESS_PREFIX).toArray();
  return Object.fromEntries(recs.map((r) => [r.key.slice(PROGRESS_PREFIX.length), r.value as ListProgress]));
}

/**
 * Each administrator's role as the server last told it (sign-in, every pull), by username,
 * beside the signed-in user: mutate reads it in its transaction to refuse a change outside the
 * role before anything is written, in the window and the service worker alike, and an offline
 * sign-in takes the role that administrator had last time. A username with no role known (a
 * server without roles, the legacy PHP one) is an Owner, as every account there may change all.
 */
const roleKey = (username: string) => `role:${username}`;
/**
 * FIRST_ROLE of contract/accounts/roles.ts, as a literal: this module is in the first load,
 * which carries no role rules. Only writeRoleOf writes a role, always a checked one.
 */
const NO_ROLE_TOLD: Role = 'Owner';

export async function readRoleOf(db: LocalDb, username: string): Promise<Role> {
  const rec = await db.meta.get(roleKey(username));
  return typeof rec?.value === 'string' ? (rec.value as Role) : NO_ROLE_TOLD;
}

/** The role of whoever is signed in; Owner when nobody is (nothing of theirs can be queued then). */
export async function readSignedInRole(db: LocalDb): Promise<Role> {
  const user = await readSignedInUser(db);
  return user === null ? NO_ROLE_TOLD : readRoleOf(db, user);
}

/** Keeps `role` for `username`, writing only when it differs (a pull's live queries stay quiet). */
export async function writeRoleOf(db: LocalDb, username: string, role: Role): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const rec = await db.meta.get(roleKey(username));
    if (rec?.value !== role) await db.meta.put({ key: roleKey(username), value: role });
  });
}
