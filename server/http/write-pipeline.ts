/**
 * The one way a write runs, whether its request came alone or as an item of a batch: ONE
 * transaction for all the items, their Idempotency-Keys looked up in one statement before and
 * stored in one statement after.
 *
 * - A key already stored answers from the stored reply (a 422 when it was used for another
 *   request); nothing runs.
 * - An item that does not succeed (4xx or 5xx, or a handler that throws) leaves nothing of
 *   itself behind, and its files go. Items run first without savepoints, since nearly every
 *   item succeeds and a savepoint and its release are two more statements per item (a third
 *   of a simple add's time on PGlite, bench/drain.mjs): the first item that does not succeed
 *   rolls that attempt back whole, and the transaction runs again with each item in a
 *   savepoint, so that only that item is undone and the others keep their replies.
 * - Replies below 500 are stored under their keys: a refusal is final, and a repeat must get
 *   the same answer. A 5xx is not stored, so its retry runs the item again.
 * - A key that another request claimed while this transaction ran (PostgreSQL) makes the whole
 *   transaction run again, and that item is then answered from the stored reply; a deadlock
 *   runs it again too. A third failure in a row is left to the client's retry: a 500, nothing
 *   applied.
 */
import type { WireBody } from '../../src/contract/validation';
import type { Database, Query } from '../db';
import { FileJournal } from '../uploads/journal';
import { type ApiReply, type ApiRoute, refuse } from './api';
import { answerFromStore, insertReplies, type StoredReply, storedReplies } from './idempotency';
import { TEXT } from './reply';

export interface WriteItem {
  route: ApiRoute;
  /** The request's Idempotency-Key, if it carried one. */
  key?: string;
  /** What the key is bound to (fingerprint.ts): a repeat under the key must have the same one. */
  fingerprint: string;
  query: Readonly<Record<string, string>>;
  body: WireBody;
  adminId: number;
  /** 'POST /api/path': for the log, and for keys stored before fingerprints. */
  label: string;
}

export interface ItemReply extends ApiReply {
  /** Answered from the stored reply of an earlier delivery of the same key. */
  replayed: boolean;
}

/** Another request claimed one of the keys while the transaction ran: run it again. */
class KeyRace extends Error {}

/** An item did not succeed in a run without savepoints: run again with them. */
class ItemFailed extends Error {}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction may simply be run again. */
const isDeadlock = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  ['40P01', '40001'].includes((err as { code?: string }).code ?? '');

export async function runWrites(
  db: Database,
  uploadsDir: string,
  items: readonly WriteItem[],
): Promise<ItemReply[]> {
  let savepoints = false;
  for (let attempt = 1; ; attempt++) {
    const files = new FileJournal(uploadsDir);
    try {
      const replies = await db.tx((q) => runItems(q, files, items, savepoints));
      await files.committed();
      return replies;
    } catch (err) {
      await files.rolledBack();
      if (err instanceof ItemFailed && !savepoints) {
        // Not an attempt of its own: the same attempt, item by item.
        savepoints = true;
        attempt -= 1;
        continue;
      }
      if ((err instanceof KeyRace || isDeadlock(err)) && attempt < 3) continue;
      throw err;
    }
  }
}

async function runItems(
  q: Query,
  files: FileJournal,
  items: readonly WriteItem[],
  savepoints: boolean,
): Promise<ItemReply[]> {
  const keys = items.flatMap((i) => (i.key === undefined ? [] : [i.key]));
  const stored = await storedReplies(q, keys);
  const fresh = new Map<string, StoredReply>();
  const out: ItemReply[] = [];
  for (const item of items) {
    const earlier = item.key === undefined ? undefined : (stored.get(item.key) ?? fresh.get(item.key));
    if (earlier) {
      out.push(answerFromStore(earlier, item));
      continue;
    }
    const journal = files.forItem();
    if (savepoints) await q('SAVEPOINT write_item');
    let reply: ApiReply;
    try {
      reply = await item.route.handler({
        q,
        query: item.query,
        body: item.body,
        adminId: item.adminId,
        uploads: journal,
      });
    } catch (err) {
      // A stack trace is for the server's log, never for the client (logged once: when the
      // item runs again in its savepoint).
      if (savepoints) console.error(`${item.label} failed:`, err);
      reply = refuse(500, TEXT.internal);
    }
    const succeeded = reply.status >= 200 && reply.status < 300;
    if (!savepoints) {
      if (!succeeded) {
        await journal.discard();
        throw new ItemFailed();
      }
      journal.keep();
    } else if (succeeded) {
      await q('RELEASE SAVEPOINT write_item');
      journal.keep();
    } else {
      await q('ROLLBACK TO SAVEPOINT write_item');
      await q('RELEASE SAVEPOINT write_item');
      await journal.discard();
    }
    if (reply.status < 500 && item.key !== undefined)
      fresh.set(item.key, { fingerprint: item.fingerprint, status: reply.status, reply: reply.body });
    out.push({ ...reply, replayed: false });
  }
  if ((await insertReplies(q, fresh)).length > 0) throw new KeyRace();
  return out;
}
