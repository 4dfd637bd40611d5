/**
 * What an API handler sees and answers, independent of the HTTP framework: the parsed request
 * and the SQL executor in, a status and a JSON body out. The same handler answers a request
 * that came alone and an item of a batch (api/write-pipeline.ts), so neither path needs to know
 * about the other, and a handler can be called directly in a test.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { WireBody } from '../../src/contract/validation';
import type { AuditRecorder } from '../audit/recorder';
import type { Query } from '../db';
import type { UploadJournal } from '../uploads/journal';

export interface ApiRequest {
  /**
   * The SQL executor: the pool for a read, the write's transaction (inside the item's
   * savepoint) for a write. Handlers must use it, never the database directly, so that a
   * write and its stored idempotent reply commit or roll back together.
   */
  q: Query;
  /** The query string, every value as text. */
  query: Readonly<Record<string, string>>;
  /** The parsed POST body (JSON, multipart or urlencoded); empty for a GET. */
  body: WireBody;
  /** The signed-in administrator. */
  adminId: number;
  /** Files written by this request, kept in step with its transaction (uploads/journal.ts). */
  uploads: UploadJournal;
  /** What a write changed, for the audit trail (audit/recorder.ts): every write records. */
  audit: AuditRecorder;
}

export interface ApiReply {
  status: number;
  body: Record<string, unknown>;
}

export type ApiHandler = (request: ApiRequest) => Promise<ApiReply>;

/** A route of the API: whether it may write decides how it runs (api/write-pipeline.ts). */
export interface ApiRoute {
  writes: boolean;
  handler: ApiHandler;
  /**
   * The entity whose role rule a write falls under (src/contract/accounts/roles.ts): its own,
   * for its actions and sets too (a school's assigned books are the school's).
   */
  entity?: EntityDescription;
}

/** A success: `{ success: true, ...fields }`. */
export const ok = (fields: Record<string, unknown> = {}): ApiReply => ({
  status: 200,
  body: { success: true, ...fields },
});

/** Every failure is `{ success: false, message }` with a meaningful HTTP status. */
export const refuse = (status: number, message: string): ApiReply => ({
  status,
  body: { success: false, message },
});
