/** What the middleware chain hands to handlers through Hono's context. */
import type { Role } from '../../src/contract/accounts/roles';

export interface AppEnv {
  Variables: {
    /** The signed-in administrator (server/auth/middleware.ts). */
    adminId: number;
    /** Their role, read with the session: what they may change (src/contract/accounts/roles.ts). */
    role: Role;
  };
}
