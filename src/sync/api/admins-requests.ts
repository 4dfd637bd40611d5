/**
 * The administrators' endpoints (contract/accounts/admins-api.ts), called directly and only
 * online: a password must never wait in the outbox, and administrators are not a list the
 * device keeps. Each call ends in the list or nothing, or the words to show.
 */
import {
  ADMIN_STATUSES,
  ADMINS_PATHS,
  type AdminStatus,
  type AdminSummary,
} from '../../contract/accounts/admins-api';
import { isRole, type Role } from '../../contract/accounts/roles';
import { SESSION_REQUIRED } from '../../contract/messages';
import type { ApiClient, ApiOutcome } from './api-client';

export type AdminsReply<T> = { ok: true; value: T } | { ok: false; message: string; unreachable?: true };

/** A server without them (the PHP API, ours with API_EXTENSIONS=off). */
export const NO_ADMINS_ENDPOINTS =
  'This server does not manage administrators (it has no administrators’ endpoints). Every administrator there may change everything.';
export const SERVER_UNREACHABLE = 'The server cannot be reached. Try again when the device is online.';

function refusal(outcome: ApiOutcome): AdminsReply<never> | null {
  if (outcome.kind === 'unreachable') return { ok: false, message: SERVER_UNREACHABLE, unreachable: true };
  if (outcome.kind === 'not-json' || outcome.status === 404 || outcome.status === 405)
    return { ok: false, message: NO_ADMINS_ENDPOINTS };
  if (outcome.status === 401) return { ok: false, message: SESSION_REQUIRED };
  if (!outcome.body.success)
    return { ok: false, message: outcome.body.message ?? `The server refused (${outcome.status}).` };
  return null;
}

const isSummary = (a: unknown): a is AdminSummary => {
  const s = a as AdminSummary;
  return (
    typeof s?.id === 'number' &&
    typeof s.username === 'string' &&
    isRole(s.role) &&
    ADMIN_STATUSES.includes(s.status) &&
    (s.lastSignIn === null || typeof s.lastSignIn === 'string')
  );
};

export async function listAdmins(api: ApiClient): Promise<AdminsReply<AdminSummary[]>> {
  const outcome = await api.request(ADMINS_PATHS.list, { method: 'GET' });
  const refused = refusal(outcome);
  if (refused || outcome.kind !== 'reply') return refused ?? { ok: false, message: NO_ADMINS_ENDPOINTS };
  const data = outcome.body.data;
  if (!Array.isArray(data) || !data.every(isSummary))
    return { ok: false, message: `Unexpected reply from ${ADMINS_PATHS.list}` };
  return { ok: true, value: data };
}

async function post(api: ApiClient, path: string, json: Record<string, unknown>): Promise<AdminsReply<true>> {
  const outcome = await api.request(path, { method: 'POST', json });
  return refusal(outcome) ?? { ok: true, value: true };
}

export const addAdmin = (api: ApiClient, admin: { username: string; password: string; role: Role }) =>
  post(api, ADMINS_PATHS.add, admin);

export const updateAdmin = (
  api: ApiClient,
  change: { id: number; role?: Role; status?: AdminStatus; password?: string },
) => post(api, ADMINS_PATHS.update, change);

export const changeOwnPassword = (api: ApiClient, current: string, next: string) =>
  post(api, ADMINS_PATHS.ownPassword, { current, next });
