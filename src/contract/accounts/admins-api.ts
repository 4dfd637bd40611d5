/**
 * The administrators' endpoints (extensions of ours: 404 with API_EXTENSIONS=off), under the
 * API root. Passwords go in, never out: no reply, log line, audit entry or outbox holds one.
 *
 * - GET  admins          → { success, data: AdminSummary[] }                (Owner only)
 * - POST admins/add      { username, password, role } → { success, id }     (Owner only)
 * - POST admins/update   { id, role?, status?, password? } → { success }    (Owner only)
 * - POST account/password { current, next } → { success }                   (everyone, own account)
 *
 * Sign-in's reply adds `role`. A disabled administrator's sessions end at once and sign-in is
 * refused with ACCOUNT_TEXT.disabled. The last enabled Owner cannot be disabled or demoted.
 */
import type { Role } from './roles';

export const ADMINS_PATHS = {
  list: 'admins',
  add: 'admins/add',
  update: 'admins/update',
  ownPassword: 'account/password',
} as const;

export const ADMIN_STATUSES = ['Enabled', 'Disabled'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

export interface AdminSummary {
  id: number;
  username: string;
  role: Role;
  status: AdminStatus;
  /** ISO time of the last successful sign-in; null if never. */
  lastSignIn: string | null;
}

/** The field of sign-in's reply (and of the session check) that carries the role. */
export const ROLE_FIELD = 'role';

export const PASSWORD_MIN_LENGTH = 10;

export const ACCOUNT_TEXT = {
  disabled: 'This account is disabled.',
  lastOwner: 'The last enabled Owner cannot be disabled or demoted.',
  shortPassword: `A password must have at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordIsUsername: 'A password must not be the username.',
  wrongCurrent: 'The current password is not right.',
  usernameTaken: 'An administrator with this username already exists.',
  badRole: 'The role must be Owner, Editor, School manager or Viewer.',
  badStatus: 'The status must be Enabled or Disabled.',
  badUsername: 'A username must have 3 to 64 characters: letters, digits, dots, dashes or underscores.',
  notFound: 'No such administrator.',
  added: 'Administrator added',
  updated: 'Administrator updated',
  passwordChanged: 'Password changed. Your other sessions have ended.',
} as const;

/** Why `password` is refused for `username`; null when it is acceptable. */
export function passwordProblem(username: string, password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return ACCOUNT_TEXT.shortPassword;
  if (password.trim().toLowerCase() === username.trim().toLowerCase()) return ACCOUNT_TEXT.passwordIsUsername;
  return null;
}

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;
