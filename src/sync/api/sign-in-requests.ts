/** Sign-in and sign-out against the legacy login endpoint and our logout extension. */
// The paths, not the endpoint table: the table's reply schemas would put valibot on the sign-in
// screen's critical path; authEndpoints is built from these same constants.
import { ROLE_FIELD } from '../../contract/accounts/admins-api';
import { FIRST_ROLE, isRole, type Role } from '../../contract/accounts/roles';
import { AUTH_PATHS } from '../../contract/wire';
import type { ApiClient } from './api-client';

export type SignInResult = { ok: true; role: Role } | { ok: false; message: string | null; network: boolean };

/** The role a reply carries; a server without roles (the PHP API) lets everyone change all: Owner. */
export const roleOfReply = (body: Record<string, unknown>): Role => {
  const role = body[ROLE_FIELD];
  return isRole(role) ? role : FIRST_ROLE;
};

export async function signIn(api: ApiClient, username: string, password: string): Promise<SignInResult> {
  const outcome = await api.request(AUTH_PATHS.login, {
    method: 'POST',
    json: { username, password },
  });
  if (outcome.kind === 'unreachable') return { ok: false, message: null, network: true };
  if (outcome.kind === 'not-json') return { ok: false, message: null, network: true };
  if (outcome.body.success) return { ok: true, role: roleOfReply(outcome.body) };
  const message = typeof outcome.body.message === 'string' ? outcome.body.message : null;
  return { ok: false, message, network: false };
}

export async function signOut(api: ApiClient): Promise<void> {
  // A legacy server has no logout; its 404 changes nothing for the client.
  await api.request(AUTH_PATHS.logout, { method: 'POST', json: {} });
}
