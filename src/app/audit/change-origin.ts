/**
 * Where the newest change of a record came from, for an edit form whose record changed while
 * it was open: this device (a queued change, another window's save, or this device's change
 * coming back from the server) or another one, then with the administrator the server's audit
 * trail names. The trail is asked once, online only, and not for long: a form must not wait on
 * a slow server to say that its record changed.
 */
import type { EntityDescription } from '../../contract/entity';
import { deviceId } from '../../db/audit/device-id';
import { pendingKeys } from '../../db/queries';
import { resolveId } from '../../db/resolve';
import { db, loadApi } from '../window-context';
import { recordHistory } from './audit-search';

export type ChangeOrigin =
  | { here: true }
  /** `who`: the administrator's username, null when the trail could not say. */
  | { here: false; who: string | null };

/** How long the trail is waited for before the form says "someone". */
const ORIGIN_WAIT_MS = 4000;

const unknown: ChangeOrigin = { here: false, who: null };

/** The newest entry of the record's history: its administrator and device; null when not to be had. */
async function newestEntry(
  entity: EntityDescription,
  key: string,
): Promise<{ admin: string | null; device: string | null } | null> {
  const search = recordHistory(entity, key);
  if (!search || !navigator.onLine) return null;
  const { readAuditPage } = await import('../../sync/audit/audit-read');
  const query = { entity: String(search.entity), limit: 1, ...(search.id ? { id: String(search.id) } : {}) };
  const read = await readAuditPage(await loadApi(), query);
  // A server without the trail (the PHP API), a lapsed session, no answer: nobody to name.
  if (read.kind !== 'answer') return null;
  return read.reply.data[0] ?? null;
}

async function originOf(entity: EntityDescription, id: string): Promise<ChangeOrigin> {
  const key = await resolveId(db, id);
  // A pull never writes over a record with a queued change: the change is this device's own.
  if ((await pendingKeys(db, entity, [key])).size > 0) return { here: true };
  const newest = await newestEntry(entity, key);
  if (!newest) return unknown;
  if (newest.device !== null && newest.device === (await deviceId(db))) return { here: true };
  return { here: false, who: newest.admin };
}

export function changeOrigin(entity: EntityDescription, id: string): Promise<ChangeOrigin> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ChangeOrigin>((resolve) => {
    timer = setTimeout(() => resolve(unknown), ORIGIN_WAIT_MS);
  });
  const asked = originOf(entity, id).catch((error: unknown) => {
    console.warn('Who changed the record could not be read', error);
    return unknown;
  });
  return Promise.race([asked, late]).finally(() => clearTimeout(timer));
}
