/** What the middleware chain hands to handlers through Hono's context. */
import type { WireBody } from '../../src/contract/validation';
import type { Query } from '../db';
import type { UploadJournal } from '../uploads/journal';

export interface AppEnv {
  Variables: {
    /**
     * The SQL executor for this request: the pool for reads, the request's transaction for
     * writes (server/http/write.ts). Handlers must use it, never the database directly, so that
     * a write and its stored idempotent reply commit or roll back together.
     */
    q: Query;
    /** The signed-in administrator (server/auth/middleware.ts). */
    adminId: number;
    /** The parsed POST body (server/http/body.ts). */
    body: WireBody;
    /** Files written by this write request (server/uploads/journal.ts). */
    uploads: UploadJournal;
  };
}
