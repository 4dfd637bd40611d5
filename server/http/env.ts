/** What the middleware chain hands to handlers through Hono's context. */
import type { WireBody } from '../../src/contract/validation';
import type { Query } from '../db';
import type { UploadJournal } from '../uploads/journal';

/**
 * A request running as one item of a batch (server/http/batch.ts). Only the batch route sets
 * it, through `app.fetch(request, { batch })`: a request from the network never carries it.
 */
export interface BatchScope {
  /** The batch's transaction; the item runs inside its own savepoint. */
  q: Query;
  /** The batch's administrator (its session was checked once for the whole batch). */
  adminId: number;
  /** Work that may only happen once the batch has committed (removing replaced files). */
  onCommit: Array<() => Promise<void>>;
  /** Work for when the whole batch rolls back (removing files its items wrote). */
  onRollback: Array<() => Promise<void>>;
  /** The item's JSON body, already parsed with the batch (server/http/body.ts takes it). */
  body?: WireBody;
}

export interface AppEnv {
  Bindings: { batch?: BatchScope };
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
