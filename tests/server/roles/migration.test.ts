/** The roles' migration: accounts made before roles stay Owners, enabled, never signed in. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db';
import { runMigrations } from '../../../server/db/migrate';
import { migrations } from '../../../server/migrations';

describe('the roles migration', () => {
  it('makes every existing administrator an enabled Owner, and refuses an unknown role', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const at = migrations.findIndex((m) => m.name === '023_admin_roles');
      await runMigrations(db, migrations.slice(0, at));
      await db.query("INSERT INTO admins (username, password_hash) VALUES ('before.roles', 'x')");
      await runMigrations(db, migrations);
      expect(await db.query('SELECT role, status, last_sign_in FROM admins')).toEqual([
        { role: 'Owner', status: 'Enabled', last_sign_in: null },
      ]);
      await expect(db.query("UPDATE admins SET role = 'Admin'")).rejects.toThrow();
      await expect(db.query("UPDATE admins SET status = 'Asleep'")).rejects.toThrow();
    } finally {
      await db.close();
    }
  });
});
