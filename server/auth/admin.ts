/** The administrator account given by the options (ADMIN_USERNAME / ADMIN_PASSWORD). */
import { FIRST_ROLE } from '../../src/contract/accounts/roles';
import type { Query } from '../db';
import { hashPassword, verifyPassword } from './password';

/** The demo password `npm start` uses when ADMIN_PASSWORD is not set. */
export const DEMO_PASSWORD = 'admin123';

/** Whether the account exists and `password` is its password. */
export async function hasPassword(q: Query, username: string, password: string): Promise<boolean> {
  const [row] = await q<{ password_hash: string }>('SELECT password_hash FROM admins WHERE username = $1', [
    username,
  ]);
  return row !== undefined && (await verifyPassword(password, row.password_hash));
}

/**
 * Creates the account when it does not exist yet. An existing account keeps its password:
 * changing the environment later must not silently reset it. The one exception is the
 * public demo password, which a configured password replaces: that is how an install that
 * began as a demo is made safe to expose.
 */
export async function ensureAdmin(
  q: Query,
  username: string,
  password: string,
): Promise<'created' | 'replaced demo password' | 'kept'> {
  const existing = await q('SELECT 1 FROM admins WHERE username = $1', [username]);
  if (existing.length > 0) {
    if (password !== DEMO_PASSWORD && (await hasPassword(q, username, DEMO_PASSWORD))) {
      await q('UPDATE admins SET password_hash = $2 WHERE username = $1', [
        username,
        await hashPassword(password),
      ]);
      return 'replaced demo password';
    }
    return 'kept';
  }
  // Several processes may start at once on one empty database: one of them creates it.
  const created = await q(
    'INSERT INTO admins (username, password_hash, role) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING RETURNING id',
    [username, await hashPassword(password), FIRST_ROLE],
  );
  return created.length > 0 ? 'created' : 'kept';
}
