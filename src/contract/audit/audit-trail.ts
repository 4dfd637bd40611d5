/**
 * The audit trail (our extension): what the server records of every applied change,
 * what the client sends with each write for it, and the reply of `GET {apiRoot}/audit`.
 *
 * A write may say when it was made on the device (`X-Made-At`, or `madeAt` in a batch item:
 * its outbox entry's creation time) and which device made it (`X-Device-Id`: a random id the
 * device keeps in its local store, not a secret). A server without the extension ignores both.
 * The reply's shape is in audit-reply.ts (valibot), apart, so that this file costs the first
 * load nothing.
 */
import type { EntityDescription } from '../entity';

export const AUDIT_PATH = 'audit';
export const MADE_AT_HEADER = 'X-Made-At';
export const DEVICE_HEADER = 'X-Device-Id';

export const AUDIT_OPS = ['add', 'update', 'delete', 'toggle', 'assign', 'upload'] as const;
export type AuditOp = (typeof AUDIT_OPS)[number];

/** What a secret (a password, even hashed) reads as in an entry's changes. */
export const HIDDEN_VALUE = '[hidden]';

/** Entries per page when the query names no limit, and the most it may name. */
export const AUDIT_DEFAULT_LIMIT = 25;
export const AUDIT_MAX_LIMIT = 100;

/**
 * An entity's name in the trail, as the API's paths and lists know it: its table, lower case
 * and plural (`classes`, `students`, `book_pages`), stable whatever the screens call it.
 */
export const auditEntityName = (entity: Pick<EntityDescription, 'table'>) => entity.table;

/** A device id as the client makes it (a UUID) and the server keeps it; anything else is ignored. */
export const isDeviceId = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value);

/** An ISO 8601 time with its offset (what toISOString makes, and what people write). */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EARLIEST = Date.UTC(2000, 0, 1);
/** A device clock a little ahead is still believed; further ahead it is not a sane time. */
const AHEAD_MS = 24 * 60 * 60 * 1000;

/**
 * When a change was made on its device, from what the client sent: an ISO 8601 time or epoch
 * milliseconds, between 2000 and a day from now. Anything else is not believed (null): the
 * time is a note on the change, never a reason to refuse it.
 */
export function parseMadeAt(raw: unknown, now = Date.now()): string | null {
  let ms: number;
  if (typeof raw === 'number') ms = raw;
  else if (typeof raw === 'string' && /^\d{1,16}$/.test(raw)) ms = Number(raw);
  else if (typeof raw === 'string' && ISO_TIME.test(raw)) ms = Date.parse(raw);
  else return null;
  if (!Number.isInteger(ms) || ms < EARLIEST || ms > now + AHEAD_MS) return null;
  return new Date(ms).toISOString();
}

/** The query of `GET audit`: every filter optional; `before` is the keyset cursor (an entry's id). */
export interface AuditQuery {
  entity?: string;
  id?: string;
  admin?: string;
  /** ISO 8601 time or date (a date means its whole day, UTC); inclusive. */
  from?: string;
  to?: string;
  /** Only entries older than the entry with this id (a page's `next`, or a snapshot). */
  before?: string;
  /** 1-based, counted from `before` (or from the newest). */
  page?: number;
  limit?: number;
}
