/**
 * The administrators' table as the Owner manages it (src/contract/accounts/admins-api.ts):
 * list, add, change a role, a status or a password. Every change is an audit entry (entity
 * `admins`) in the change's own transaction; a password reads "[hidden]" there, and no reply
 * of this module carries a password or a hash.
 *
 * The last enabled Owner cannot be disabled or demoted. Two Owners demoting each other at once
 * must not both succeed, so a change that could remove an Owner first locks every enabled
 * Owner's row together with its target (one statement, in id order: two such changes wait for
 * each other instead of deadlocking), then counts them as they are after any change that was
 * waited for.
 */
import {
  ACCOUNT_TEXT,
  type AdminStatus,
  type AdminSummary,
  passwordProblem,
} from '../../src/contract/accounts/admins-api';
import type { Role } from '../../src/contract/accounts/roles';
import { HIDDEN_VALUE } from '../../src/contract/audit/audit-trail';
import { type AuditOrigin, insertAudit } from '../audit/store';
import { hashPassword, verifyPassword } from '../auth/password';
import { forgetSessions } from '../auth/session-cache';
import { endSessionsOf } from '../auth/sessions';
import type { Database, Query } from '../db';

/** The entity name of administrators in the audit trail (their table, as for every entity). */
export const ADMINS_AUDIT_ENTITY = 'admins';

/** A refusal of a change: the HTTP status and one of ACCOUNT_TEXT's messages. */
export interface Refusal {
  status: 400 | 404 | 409;
  message: string;
}

interface AdminRow {
  id: number;
  username: string;
  role: Role;
  status: AdminStatus;
  last_sign_in: Date | string | null;
}

const summary = (row: AdminRow): AdminSummary => ({
  id: row.id,
  username: row.username,
  role: row.role,
  status: row.status,
  lastSignIn: row.last_sign_in === null ? null : new Date(row.last_sign_in).toISOString(),
});

export async function listAdmins(q: Query): Promise<AdminSummary[]> {
  const rows = await q<AdminRow>('SELECT id, username, role, status, last_sign_in FROM admins ORDER BY id');
  return rows.map(summary);
}

type Changes = Record<string, [unknown, unknown]>;

const audit = (q: Query, origin: AuditOrigin, id: number, op: 'add' | 'update', changes: Changes) =>
  insertAudit(q, [{ ...origin, entity: ADMINS_AUDIT_ENTITY, recordId: String(id), op, changes }]);

/** Adds an administrator (checked already); their id, or null when the username is taken. */
export async function addAdmin(
  db: Database,
  origin: AuditOrigin,
  account: { username: string; password: string; role: Role },
): Promise<number | null> {
  const hash = await hashPassword(account.password);
  return db.tx(async (q) => {
    const [row] = await q<{ id: number }>(
      `INSERT INTO admins (username, password_hash, role) VALUES ($1, $2, $3)
       ON CONFLICT (username) DO NOTHING RETURNING id`,
      [account.username, hash, account.role],
    );
    if (!row) return null;
    await audit(q, origin, row.id, 'add', {
      username: [null, account.username],
      role: [null, account.role],
      status: [null, 'Enabled'],
      password: [null, HIDDEN_VALUE],
    });
    return row.id;
  });
}

export interface AdminChange {
  id: number;
  role?: Role;
  status?: AdminStatus;
  password?: string;
}

/** Locks the target's row and every enabled Owner's (see the module comment). */
async function lockForChange(q: Query, id: number) {
  const rows = await q<AdminRow>(
    `SELECT id, username, role, status, last_sign_in FROM admins
     WHERE id = $1 OR (role = 'Owner' AND status = 'Enabled') ORDER BY id FOR UPDATE`,
    [id],
  );
  const target = rows.find((r) => r.id === id);
  const owners = rows.filter((r) => r.role === 'Owner' && r.status === 'Enabled').length;
  return { target, owners };
}

/** Whether `change` would take away the last enabled Owner. */
const removesLastOwner = (target: AdminRow, change: AdminChange, owners: number) =>
  target.role === 'Owner' &&
  target.status === 'Enabled' &&
  ((change.role !== undefined && change.role !== 'Owner') || change.status === 'Disabled') &&
  owners <= 1;

/**
 * Applies `change` (its role and status checked already; the password is checked here, against
 * the target's username). A new password or a Disabled status ends
 * the target's sessions, all but `keepToken` (the caller's own, when they change themselves).
 */
export async function updateAdmin(
  db: Database,
  origin: AuditOrigin,
  change: AdminChange,
  keepToken?: string,
): Promise<Refusal | null> {
  // Hashed before the transaction: the Owners' rows stay locked for as short a time as can be.
  const hash = change.password === undefined ? null : await hashPassword(change.password);
  const refusal = await db.tx(async (q): Promise<Refusal | null> => {
    const { target, owners } = await lockForChange(q, change.id);
    if (!target) return { status: 404, message: ACCOUNT_TEXT.notFound };
    if (change.password !== undefined) {
      const problem = passwordProblem(target.username, change.password);
      if (problem) return { status: 400, message: problem };
    }
    if (removesLastOwner(target, change, owners)) return { status: 409, message: ACCOUNT_TEXT.lastOwner };
    const changes: Changes = {};
    if (change.role !== undefined && change.role !== target.role) changes.role = [target.role, change.role];
    if (change.status !== undefined && change.status !== target.status)
      changes.status = [target.status, change.status];
    if (change.password !== undefined) changes.password = [HIDDEN_VALUE, HIDDEN_VALUE];
    if (Object.keys(changes).length === 0) return null;
    await q(
      `UPDATE admins SET role = COALESCE($2, role), status = COALESCE($3, status),
         password_hash = COALESCE($4, password_hash) WHERE id = $1`,
      [target.id, change.role ?? null, change.status ?? null, hash],
    );
    if (change.status === 'Disabled') await endSessionsOf(q, target.id);
    else if (change.password !== undefined) await endSessionsOf(q, target.id, keepToken);
    await audit(q, origin, target.id, 'update', changes);
    if (changes.role) await pokeDevices(q);
    return null;
  });
  // Committed: no request of this process may go on with the session as it was.
  forgetSessions();
  return refusal;
}

/**
 * Devices hear of a new role as of any commit: the change sequence moves (no row takes that
 * number, so no delta is the wiser) and the live stream tells every device, which pulls and
 * reads its role from the reply, instead of learning it at its next poll.
 */
async function pokeDevices(q: Query): Promise<void> {
  await q("SELECT nextval('change_seq'), pg_notify('changes', '')");
}

/**
 * An administrator's own new password, once `current` is verified: their other sessions end
 * (a password changed because it leaked must shut out whoever holds it), this one stays.
 */
export async function changeOwnPassword(
  db: Database,
  origin: AuditOrigin,
  passwords: { current: string; next: string },
  keepToken: string | undefined,
): Promise<Refusal | null> {
  const [row] = await db.query<{ username: string; password_hash: string }>(
    'SELECT username, password_hash FROM admins WHERE id = $1',
    [origin.adminId],
  );
  if (!row || !(await verifyPassword(passwords.current, row.password_hash)))
    return { status: 400, message: ACCOUNT_TEXT.wrongCurrent };
  const problem = passwordProblem(row.username, passwords.next);
  if (problem) return { status: 400, message: problem };
  const hash = await hashPassword(passwords.next);
  await db.tx(async (q) => {
    await q('UPDATE admins SET password_hash = $2 WHERE id = $1', [origin.adminId, hash]);
    await endSessionsOf(q, origin.adminId, keepToken);
    await audit(q, origin, origin.adminId, 'update', { password: [HIDDEN_VALUE, HIDDEN_VALUE] });
  });
  forgetSessions();
  return null;
}
