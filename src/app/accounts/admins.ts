/**
 * The administrators' screens' door to the server: online only, never through the outbox (a
 * password must not sit on the device), loaded with those screens.
 */
import type { AdminStatus, AdminSummary } from '../../contract/accounts/admins-api';
import type { Role } from '../../contract/accounts/roles';
import * as requests from '../../sync/api/admins-requests';
import { signedInUser } from '../session';
import { loadApi } from '../window-context';

export type { AdminsReply } from '../../sync/api/admins-requests';

/** Said instead of trying when the device knows it has no network. */
export const NEEDS_SERVER =
  'This needs the server: connect to the internet and try again. Nothing was saved on this device.';

const offline = { ok: false, message: NEEDS_SERVER, unreachable: true } as const;

export async function fetchAdmins(): Promise<requests.AdminsReply<AdminSummary[]>> {
  return navigator.onLine ? requests.listAdmins(await loadApi()) : offline;
}

export async function addAdmin(admin: { username: string; password: string; role: Role }) {
  return navigator.onLine ? requests.addAdmin(await loadApi(), admin) : offline;
}

export async function updateAdmin(change: {
  id: number;
  role?: Role;
  status?: AdminStatus;
  password?: string;
}) {
  return navigator.onLine ? requests.updateAdmin(await loadApi(), change) : offline;
}

/**
 * The signed-in administrator's own password. Once changed, this device's offline sign-in
 * takes the new one (the old would no longer match what the server knows).
 */
export async function changeOwnPassword(current: string, next: string) {
  if (!navigator.onLine) return offline;
  const reply = await requests.changeOwnPassword(await loadApi(), current, next);
  const username = signedInUser();
  if (reply.ok && username)
    await import('../offline-sign-in/offline-sign-in')
      .then((m) => m.keepVerifier(username, next))
      .catch((error) => console.warn('Offline sign-in not kept', error));
  return reply;
}
