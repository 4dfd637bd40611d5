/** What the middleware chain hands to handlers through Hono's context. */
export interface AppEnv {
  Variables: {
    /** The signed-in administrator (server/auth/middleware.ts). */
    adminId: number;
  };
}
