/**
 * Stored replies per Idempotency-Key (design brief §3 rule 2). The key is claimed with an
 * INSERT … ON CONFLICT DO NOTHING inside the request's transaction: on PostgreSQL a concurrent
 * request with the same key blocks on the primary key until the first one commits (then it
 * finds the stored reply) or rolls back (then it claims the key itself). The reply is written
 * before the same commit, so a committed key always carries its reply.
 */
import type { Query } from '../db';
import { TEXT } from './reply';

export interface StoredReply {
  methodPath: string;
  status: number;
  reply: unknown;
}

/**
 * The answer to a request whose key is already stored: the stored reply when it is the same
 * request, a 422 when the key was used for another one.
 */
export function answerFromStore(
  stored: StoredReply,
  methodPath: string,
): { status: number; body: unknown; replayed: boolean } {
  return stored.methodPath === methodPath
    ? { status: stored.status, body: stored.reply, replayed: true }
    : { status: 422, body: { success: false, message: TEXT.keyReused }, replayed: false };
}

/** Client-made ids: printable ASCII without spaces, of a sane length. */
export const isValidKey = (key: string) => /^[\x21-\x7e]{1,200}$/.test(key);

/** Claims the key; returns null when claimed, or the reply stored by the earlier request. */
export async function claimKey(q: Query, key: string, methodPath: string): Promise<StoredReply | null> {
  const claimed = await q(
    'INSERT INTO idempotency_keys (key, method_path) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key',
    [key, methodPath],
  );
  if (claimed.length > 0) return null;
  const [row] = await q<{ method_path: string; status: number; reply: unknown }>(
    'SELECT method_path, status, reply FROM idempotency_keys WHERE key = $1',
    [key],
  );
  // Only reachable if the row vanished between the two statements; a retry will sort it out.
  if (!row) throw new Error(`Idempotency-Key ${key} conflicted but has no stored row`);
  return { methodPath: row.method_path, status: row.status, reply: row.reply };
}

export async function storeReply(q: Query, key: string, status: number, reply: unknown): Promise<void> {
  await q('UPDATE idempotency_keys SET status = $2, reply = $3::jsonb WHERE key = $1', [
    key,
    status,
    JSON.stringify(reply),
  ]);
}

/** The stored replies of those of `keys` already claimed (one statement for a whole batch). */
export async function storedReplies(q: Query, keys: readonly string[]): Promise<Map<string, StoredReply>> {
  const stored = new Map<string, StoredReply>();
  if (keys.length === 0) return stored;
  const rows = await q<{ key: string; method_path: string; status: number; reply: unknown }>(
    'SELECT key, method_path, status, reply FROM idempotency_keys WHERE key = ANY($1::text[])',
    [keys],
  );
  for (const row of rows)
    stored.set(row.key, { methodPath: row.method_path, status: row.status, reply: row.reply });
  return stored;
}

/**
 * Claims keys and stores their replies in one statement, after the writes they answer (the
 * batch path, where the keys were looked up beforehand). Returns the keys that another request
 * claimed meanwhile (on PostgreSQL the insert waits for that request's commit): the caller
 * must then undo its own writes for them. Keys are claimed in sorted order, so two batches
 * sharing keys wait for each other instead of deadlocking.
 */
export async function insertReplies(q: Query, replies: ReadonlyMap<string, StoredReply>): Promise<string[]> {
  if (replies.size === 0) return [];
  const keys = [...replies.keys()];
  const list = [...replies.values()];
  const inserted = await q<{ key: string }>(
    `INSERT INTO idempotency_keys (key, method_path, status, reply)
     SELECT k, m, s, r::jsonb FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS t(k, m, s, r)
     ORDER BY k
     ON CONFLICT (key) DO NOTHING RETURNING key`,
    [
      keys,
      list.map((r) => r.methodPath),
      list.map((r) => r.status),
      list.map((r) => JSON.stringify(r.reply)),
    ],
  );
  const mine = new Set(inserted.map((row) => row.key));
  return keys.filter((key) => !mine.has(key));
}
