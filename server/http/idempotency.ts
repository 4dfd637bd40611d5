/**
 * Stored replies per Idempotency-Key (design brief §3 rule 2). The key is claimed with an
 * INSERT … ON CONFLICT DO NOTHING inside the request's transaction: on PostgreSQL a concurrent
 * request with the same key blocks on the primary key until the first one commits (then it
 * finds the stored reply) or rolls back (then it claims the key itself). The reply is written
 * before the same commit, so a committed key always carries its reply.
 */
import type { Query } from '../db';

export interface StoredReply {
  methodPath: string;
  status: number;
  reply: unknown;
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
