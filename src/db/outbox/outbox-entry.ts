/**
 * The outbox entry: one change waiting to reach the server. Its shape carries every rule of
 * the design brief's §3 from the start:
 * - rule 1: it leaves the table only when the server confirmed it or the administrator
 *   discarded it (replay deletes it in the same transaction that applies the reply);
 * - rule 2: `id` is made here and sent as the Idempotency-Key; `attempts > 0` means it may
 *   have reached the server, so it is never folded into or rewritten after that;
 * - rule 3: `seq` orders entries; `key` and the ref values in `payload` may be temporary
 *   ids, resolved through the id map when sent, and an entry waits while any is unresolved;
 * - rule 4: `status`, `attempts`, `nextAttemptAt` and `lastError` classify failures;
 * - rule 5: `base` is the record as it was when the edit began, to detect conflicts;
 * - rule 6: unsent entries of one record are folded at write time (see db/mutations/);
 * - rule 7: payload values may be Blobs, stored as they are in IndexedDB; `uploads` keeps where
 *   a large one's resumable upload stands (the Blob stays until the record is confirmed);
 * - `author` is the administrator who made the change; it is sent only under their
 *   own session (belongsTo).
 */

/**
 * 'set': one field through its own endpoint (an entity action such as the popular toggle).
 * 'relate': a set relation replaced whole (the books assigned to a school).
 */
export type OutboxOp = 'add' | 'update' | 'delete' | 'set' | 'relate';

export type OutboxStatus =
  /** Waiting to be sent (again, once `nextAttemptAt` has passed). */
  | 'pending'
  /** A replayer has sent it and is waiting for the reply. */
  | 'sending'
  /** The server refused it (success false or a 4xx): needs Retry, Edit or Discard. */
  | 'failed'
  /** The record changed on the server in a field this edit changes too: the administrator chooses. */
  | 'conflict';

/** One field changed both here and on the server since the edit began (rule 5). */
export interface ConflictField {
  field: string;
  /** This device's value. */
  mine: FieldValue;
  /** The server's current value. */
  theirs: FieldValue;
}

export interface Conflict {
  fields: ConflictField[];
  /** The record as the server has it now. */
  server: Record<string, FieldValue>;
}

export type FieldValue = string | number | boolean | null | Blob | readonly string[];

/** A resumable upload on the server (src/sync/uploads/resumable-upload.ts). */
export interface StoredUpload {
  /** The upload's URL (tus), to ask for its offset and go on. */
  url: string;
  size: number;
  /** Of the Blob it carries: a URL is used again only for the same content. */
  fingerprint: string;
}

/** An entry as it is written: the outbox numbers it (`seq`) when it is stored. */
export interface NewEntry {
  /** Client-made id, sent as the Idempotency-Key. */
  id: string;
  /**
   * The username of the administrator signed in when the change was made. Absent on entries
   * made before authors were kept (or with nobody recorded as signed in): those belong to
   * whoever signs in.
   */
  author?: string;
  entity: string;
  op: OutboxOp;
  /** The record's local key (a temporary id until its add succeeds). */
  key: string;
  /** For 'set': the entity action's name. */
  action?: string;
  /** For 'relate': the relation's name; payload and base hold the set under that name. */
  relation?: string;
  /** Field values of the change, keyed by field name. */
  payload: Record<string, FieldValue>;
  /** The record when the edit began (updates and deletes). */
  base: Record<string, FieldValue> | null;
  status: OutboxStatus;
  attempts: number;
  /** Epoch ms before which it is not retried. */
  nextAttemptAt: number;
  /**
   * Its last attempt got no answer from the server (no reply, or a gateway saying the server
   * is down): its wait ends as soon as the server answers anything again (src/sync/recovery.ts),
   * unlike a wait the server asked for (Retry-After) or one after the server's own error.
   */
  unreachable?: boolean;
  createdAt: number;
  lastError: string | null;
  /** Set while status is 'conflict'. */
  conflict?: Conflict;
  /**
   * The server no longer has the record (learnt while merging this edit): a discard then
   * removes it here too instead of putting back the record as it was, since a pull may
   * already have passed its deletion while this change held the record.
   */
  goneOnServer?: boolean;
  /**
   * An edit or a set as first sent, after its merge with the server's record (rule 5): every
   * retry under the same Idempotency-Key sends exactly this, since the server binds the key to
   * the whole request. Cleared with a new key (Retry of a refusal, a folded correction).
   */
  sent?: { base: Record<string, FieldValue> | null; payload: Record<string, FieldValue> };
  /**
   * The server confirmed this add but did not say the new id, and the refetch that learns it
   * has not succeeded yet: only the lookup is retried, the add is never sent again (rule 2).
   */
  confirmedAt?: number;
  /**
   * Large files sent ahead of the request in resumable chunks, by field name: kept so that a
   * resend (after a dropped connection, a reload or a worker restart) resumes each upload
   * where the server has it instead of starting again. Not part of the request itself.
   */
  uploads?: Record<string, StoredUpload>;
  /**
   * A copy of this change went into a file of unsent changes, or this entry was loaded from
   * one (db/saved-queue/gather-and-load.ts): another device may send the same change under the same key, so
   * it is never folded into or dropped unsent, as if it had been sent already (rule 2).
   */
  copied?: true;
}

/** An entry as it is stored and read back. */
export interface OutboxEntry extends NewEntry {
  /** Order of creation; auto-incremented. */
  seq: number;
}

export function isUnsent(entry: NewEntry): boolean {
  return entry.status === 'pending' && entry.attempts === 0 && !entry.copied;
}

/**
 * Whether the administrator signed in as `user` may send (or fold into) this entry: their own
 * changes, and those of no recorded author. Another administrator's changes wait for them.
 */
export function belongsTo(entry: Pick<NewEntry, 'author'>, user: string | null): boolean {
  return entry.author === undefined || entry.author === user;
}
