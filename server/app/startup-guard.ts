/**
 * What a start refuses to do: expose the demo account to the network, and, in production,
 * create the administrator with the demo password. Checked against the database (the account
 * as it is), before the server listens.
 */
import { DEMO_PASSWORD, ensureAdmin, hasPassword } from '../auth/admin';
import type { Query } from '../db';
import { isLoopbackHost } from '../http/client';
import type { Logger } from '../ops/log';
import { StartRefused } from '../ops/start-error';

export interface AdminSetup {
  username: string;
  /** Undefined: not configured (ADMIN_PASSWORD unset), the demo password is used. */
  password?: string;
  host: string;
  /** ALLOW_DEMO_PASSWORD=1: listen on the network even with the demo password. */
  allowDemoPassword: boolean;
  /** NODE_ENV=production: a fresh install needs ADMIN_PASSWORD. */
  requirePassword: boolean;
}

export async function prepareAdmin(q: Query, log: Logger, setup: AdminSetup): Promise<void> {
  const exists = (await q('SELECT 1 FROM admins WHERE username = $1', [setup.username])).length > 0;
  if (!exists && setup.password === undefined && setup.requirePassword)
    throw new StartRefused(
      `There is no administrator yet and ADMIN_PASSWORD is not set. In production the demo password is not used: ` +
        `set ADMIN_PASSWORD (and ADMIN_USERNAME if you want another name than ${setup.username}) and start again.`,
    );
  const outcome = await ensureAdmin(q, setup.username, setup.password ?? DEMO_PASSWORD);
  if (outcome === 'replaced demo password')
    log.info(`The account ${setup.username} had the demo password: it now has the one from ADMIN_PASSWORD.`);
  if (isLoopbackHost(setup.host) || setup.allowDemoPassword) return;
  if (await hasPassword(q, setup.username, DEMO_PASSWORD))
    throw new StartRefused(
      `Refusing to listen on ${setup.host}: the account ${setup.username} has the demo password, which anyone can look up. ` +
        `Set ADMIN_PASSWORD (it replaces the demo password), or set ALLOW_DEMO_PASSWORD=1 to accept that risk, ` +
        `or listen on this machine only (HOST=127.0.0.1).`,
    );
}
