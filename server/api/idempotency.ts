/**
 * Stored replies per Idempotency-Key (design brief §3 rule 2). A write's key is looked up
 * before it runs and stored, with its reply, in the same transaction as its writes
 * (write-pipeline.ts): a committed key always carries its reply, and a write that rolled back
 * left no key behind, so its retry runs it.
 *
 * A key belongs to the administrator who sent it (migration 012): another administrator's
 * same key is another key, with nothing that tells the first one exists. Keys stored before
 * that have no owner (admin_id 0): a repeat of their very request is still answered from them,
 * and any other request under them runs as under a new key.
 */
import type { Query, Statement } from '../db';
import { TEXT } from '../http/reply';
import { sameRequest } from './fingerprint';

/**
 * How long a stored reply is kept: longer than a tablet may stay offline with a change whose
 * reply was lost (weeks), so that its retry is still answered from the store. Then the server
 * prunes it (pruneKeys). Setting: IDEMPOTENCY_RETENTION_DAYS.
 */
export const DEFAULT_RETENTION_DAYS = 60;

export interface StoredReply {
  /** What the key was used for (fingerprint.ts): a repeat must be the same request. */
  fingerprint: string;
  status: number;
  reply: unknown;
  /** Stored before keys had owners: it may be another administrator's. */
  unowned?: boolean;
}

/** The admin_id of replies stored before keys had owners (migration 012). */
const NO_OWNER = 0;

/**
 * The answer to a request whose key is already stored: the stored reply when it is the same
 * request, a 422 when the key was used for another one; undefined when the request is to run
 * as under a new key (an unowned key stored for another request).
 */
export function answerFromStore(
  stored: StoredReply,
  request: { fingerprint: string; label: string },
): { status: number; body: Record<string, unknown>; replayed: boolean } | undefined {
  if (sameRequest(stored.fingerprint, request.fingerprint, request.label))
    return { status: stored.status, body: stored.reply as Record<string, unknown>, replayed: true };
  if (stored.unowned) return undefined;
  return { status: 422, body: { success: false, message: TEXT.keyReused }, replayed: false };
}

/** Client-made ids: printable ASCII without spaces, of a sane length. */
export const isValidKey = (key: string) => /^[\x21-\x7e]{1,200}$/.test(key);

/**
 * The stored replies of those of `owner`'s `keys` already claimed (one statement for a whole
 * batch); an unowned one only where the owner has none under that key.
 */
export async function storedReplies(
  q: Query,
  owner: number,
  keys: readonly string[],
): Promise<Map<string, StoredReply>> {
  const stored = new Map<string, StoredReply>();
  if (keys.length === 0) return stored;
  const rows = await q<{
    key: string;
    admin_id: number;
    fingerprint: string;
    status: number;
    reply: unknown;
  }>(
    `SELECT key, admin_id, fingerprint, status, reply FROM idempotency_keys
     WHERE key = ANY($2::text[]) AND admin_id IN ($1, ${NO_OWNER})
     ORDER BY admin_id`,
    [owner, keys],
  );
  // Unowned rows (admin_id 0) come first, so the owner's own row replaces them.
  for (const row of rows)
    stored.set(row.key, {
      fingerprint: row.fingerprint,
      status: row.status,
      reply: row.reply,
      unowned: row.admin_id === NO_OWNER,
    });
  return stored;
}

/**
 * Claims `owner`'s keys and stores their replies in one statement, after the writes they answer,
 * together with `alongside` (the transaction's audit entries: one round trip for both).
 * Returns the keys that another request claimed meanwhile (on PostgreSQL the insert waits for
 * that request's commit): the caller must then undo its own writes for them. Keys are claimed
 * in sorted order, so two transactions sharing keys wait for each other instead of deadlocking.
 *
 * `unownedTaken`: a key stored before keys had owners counts as claimed too. For a caller that
 * did not look its keys up first (write-pipeline.ts), which must then look before running again.
 */
export async function insertReplies(
  q: Query,
  owner: number,
  replies: ReadonlyMap<string, StoredReply>,
  { alongside, unownedTaken = false }: { alongside?: Statement | null; unownedTaken?: boolean } = {},
): Promise<string[]> {
  if (replies.size === 0) {
    if (alongside) await q(alongside.sql, alongside.params);
    return [];
  }
  const keys = [...replies.keys()];
  const list = [...replies.values()];
  const before = alongside ? `WITH alongside AS (${alongside.sql}), ` : 'WITH ';
  const p = (i: number) => `$${(alongside?.params.length ?? 0) + i}`;
  const unowned = unownedTaken
    ? `WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys u WHERE u.admin_id = ${NO_OWNER} AND u.key = claimed.key)`
    : '';
  const inserted = await q<{ key: string }>(
    `${before}claimed AS (
       INSERT INTO idempotency_keys (admin_id, key, fingerprint, status, reply)
       SELECT ${p(1)}, k, m, s, r::jsonb
       FROM unnest(${p(2)}::text[], ${p(3)}::text[], ${p(4)}::int[], ${p(5)}::text[]) AS t(k, m, s, r)
       ORDER BY k
       ON CONFLICT (admin_id, key) DO NOTHING RETURNING key)
     SELECT key FROM claimed ${unowned}`,
    [
      ...(alongside?.params ?? []),
      owner,
      keys,
      list.map((r) => r.fingerprint),
      list.map((r) => r.status),
      list.map((r) => JSON.stringify(r.reply)),
    ],
  );
  const mine = new Set(inserted.map((row) => row.key));
  return keys.filter((key) => !mine.has(key));
}

/** Removes stored replies older than the retention window; returns how many went. */
export async function pruneKeys(q: Query, retentionDays: number): Promise<number> {
  const gone = await q(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1) RETURNING key`,
    [retentionDays],
  );
  return gone.length;
}
