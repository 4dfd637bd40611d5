/** The administrator account given by the options (ADMIN_USERNAME / ADMIN_PASSWORD). */
import type { Query } from '../db';
import { hashPassword } from './password';

/**
 * Creates the account when it does not exist yet. An existing account keeps its password:
 * changing the environment later must not silently reset it.
 */
export async function ensureAdmin(q: Query, username: string, password: string): Promise<void> {
  const existing = await q('SELECT 1 FROM admins WHERE username = $1', [username]);
  if (existing.length > 0) return;
  await q('INSERT INTO admins (username, password_hash) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING', [
    username,
    await hashPassword(password),
  ]);
}
