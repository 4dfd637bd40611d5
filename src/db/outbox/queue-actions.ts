/**
 * What the administrator can do with a queued change from the outbox screen (rule 4 and 5):
 * send it again now, or settle a conflict field by field. Discard is in discard.ts.
 */
import { entityByName } from '../../contract/entities';
import type { LocalDb } from '../database';
import { newUuid } from '../ids';

/**
 * Sends the entry again at the next replay. A refused entry gets a new Idempotency-Key:
 * the server stored its refusal under the old one and applied nothing, so the same key
 * would only bring the stored refusal back.
 */
export async function retryEntry(db: LocalDb, seq: number): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(seq);
    if (!entry || entry.status === 'sending') return;
    const fresh =
      entry.status === 'failed'
        ? {
            id: entry.copied ? retriedKey(entry.id) : newUuid(),
            attempts: 0,
            sent: undefined,
            goneOnServer: undefined,
          }
        : {};
    await db.outbox.update(seq, { status: 'pending', nextAttemptAt: 0, lastError: null, ...fresh });
  });
}

/**
 * The new key of a retried change that also sits on another device (`copied`): made
 * from the old one, so that both devices' Retry of the same refused change send it under one
 * key and it takes effect once. `k` becomes `k~r1`, then `k~r2`.
 */
export function retriedKey(id: string): string {
  const match = /^(.*)~r(\d+)$/.exec(id);
  return match ? `${match[1]}~r${Number(match[2]) + 1}` : `${id}~r1`;
}

/**
 * Every change of `author` waiting to be sent becomes failed with `message` (their account was
 * disabled: no session of theirs can send it). Retry sends it again, under a new key.
 */
export async function failAuthorsWaiting(db: LocalDb, author: string, message: string): Promise<number> {
  return db.outbox
    .filter((entry) => entry.author === author && entry.status === 'pending')
    .modify({ status: 'failed', lastError: message });
}

export type Choice = 'mine' | 'theirs';

/**
 * Settles a conflict: each conflicting field takes this device's value or the server's.
 * The server's record becomes the edit's new base, so its other changes are kept and only
 * a further change on the server would conflict again.
 */
export async function resolveConflict(
  db: LocalDb,
  seq: number,
  choices: Record<string, Choice>,
): Promise<void> {
  const entry = await db.outbox.get(seq);
  if (!entry) return;
  const entity = entityByName(entry.entity);
  const table = db.rows(entity);
  await db.transaction('rw', [db.outbox, table], async () => {
    const current = await db.outbox.get(seq);
    if (current?.status !== 'conflict' || !current.conflict) return;
    const payload = { ...current.payload };
    for (const f of current.conflict.fields) {
      if (choices[f.field] === 'theirs') payload[f.field] = f.theirs;
    }
    const server = current.conflict.server;
    await db.outbox.update(seq, {
      payload,
      base: { ...current.base, ...server },
      status: 'pending',
      conflict: undefined,
      lastError: null,
      nextAttemptAt: 0,
    });
    const row = await table.get(current.key);
    if (row) await table.put({ ...row, ...server, ...payload, [entity.key]: current.key });
  });
}

/**
 * 'Sync now': every waiting entry may go at once, whatever backoff it was given. Only the
 * time changes (the entries keep their keys), so a resend is still the same request (rule 2).
 */
export async function makeWaitingDue(db: LocalDb): Promise<void> {
  await db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
}
