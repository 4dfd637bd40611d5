/**
 * The one way a write runs, whether its request came alone or as an item of a batch: ONE
 * transaction for all the items, their Idempotency-Keys looked up in one statement before and
 * stored, with the audit entries, in one statement after.
 *
 * - A key already stored answers from the stored reply (a 422 when it was used for another
 *   request); nothing of it is applied. A request that comes alone is not looked up first: its
 *   write runs, and when the claim of its key at the end finds the key stored, the transaction
 *   is rolled back and runs again, looking first. Nearly every request alone is a first
 *   delivery, and a statement fewer is a sixth of its cost on PGlite (bench/write-cost.mjs).
 * - An item that does not succeed (4xx or 5xx, or a handler that throws) leaves nothing of
 *   itself behind, and its files go. Items run first without savepoints, since nearly every
 *   item succeeds and a savepoint and its release are two more statements per item (a third
 *   of a simple add's time on PGlite, bench/drain.mjs): the first item that does not succeed
 *   rolls that attempt back whole, and the transaction runs again with each item in a
 *   savepoint, so that only that item is undone and the others keep their replies. An item
 *   naming a resumable upload runs in its savepoint at once (a rollback would lose the upload).
 * - Replies below 500 are stored under their keys: a refusal is final, and a repeat must get
 *   the same answer. A 5xx is not stored, so its retry runs the item again.
 * - A key that another request claimed while this transaction ran (PostgreSQL) makes the whole
 *   transaction run again, and that item is then answered from the stored reply: as often as
 *   keys are raced, since each race answers at least one more key from the store. A deadlock
 *   runs it again too; a third deadlock in a row is left to the client's retry: a 500, nothing
 *   applied.
 * - An item outside its administrator's role is refused (403) before its handler runs
 *   (role-guard.ts); its refusal is stored under its key as any other.
 * - Every item that succeeds records its changes (audit/recorder.ts); they are stored with the
 *   replies, so an applied change always has its audit entry, and a replay, a refusal or a
 *   rollback none. A success that recorded nothing is a handler's bug: rolled back, a 500.
 */
import type { Role } from '../../src/contract/accounts/roles';
import { isUploadReference } from '../../src/contract/resumable';
import type { WireBody } from '../../src/contract/validation';
import { ItemAudit } from '../audit/recorder';
import { auditInsert, type StoredChange } from '../audit/store';
import { rewindPrehashed, withPrehashed } from '../auth/prehashed';
import type { Database, Query } from '../db';
import { type ApiReply, type ApiRoute, refuse } from '../entities/handler';
import { TEXT } from '../http/reply';
import { opsMetrics, requestLog } from '../ops/context';
import type { FileStorage } from '../storage/types';
import { FileJournal } from '../uploads/journal';
import { constraintRefusal } from './constraint-refusal';
import { answerFromStore, insertReplies, type StoredReply, storedReplies } from './idempotency';
import { prehashPasswords } from './prehash';
import { roleRefusal } from './role-guard';

export interface WriteItem {
  route: ApiRoute;
  /** The request's Idempotency-Key, if it carried one. */
  key?: string;
  /** What the key is bound to (fingerprint.ts): a repeat under the key must have the same one. */
  fingerprint: string;
  query: Readonly<Record<string, string>>;
  body: WireBody;
  adminId: number;
  /** Their role, as their session read it: what they may write (role-guard.ts). */
  role: Role;
  /** 'POST /api/path': for the log, and for keys stored before fingerprints. */
  label: string;
  /** When the change was made on the device (ISO 8601) and which device: for the audit trail. */
  madeAt?: string | null;
  device?: string | null;
}

export interface ItemReply extends ApiReply {
  /** Answered from the stored reply of an earlier delivery of the same key. */
  replayed: boolean;
}

/**
 * One of the keys was claimed already: by another request while the transaction ran, or,
 * when the keys were not looked up first, by an earlier delivery. Run it again, looking first.
 */
class KeyRace extends Error {}

/** An item did not succeed in a run without savepoints: run again with them. */
class ItemFailed extends Error {}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction may simply be run again. */
const isDeadlock = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  ['40P01', '40001'].includes((err as { code?: string }).code ?? '');

/**
 * An item naming a finished resumable upload moves it in, and a rollback removes the moved
 * file: a run again without savepoints could no longer find the upload. Such items (they travel
 * alone: a file field makes a multipart request) run in a savepoint from the start.
 */
const namesUpload = (item: WriteItem) =>
  Object.values(item.body).some((value) => typeof value === 'string' && isUploadReference(value));

export async function runWrites(
  db: Database,
  storage: FileStorage,
  items: readonly WriteItem[],
): Promise<ItemReply[]> {
  // New passwords are hashed side by side before the transaction opens (prehash.ts).
  const prehashed = await prehashPasswords(db, items);
  const apply = () => applyWrites(db, storage, items);
  return prehashed ? withPrehashed(prehashed, apply) : apply();
}

async function applyWrites(
  db: Database,
  storage: FileStorage,
  items: readonly WriteItem[],
): Promise<ItemReply[]> {
  let savepoints = items.some(namesUpload);
  // A request alone is nearly always its first delivery: it runs at once, and its key's claim
  // at the end finds an earlier delivery (then it runs again, looking first). A batch looks its
  // keys up first, in one statement for all: retries travel in batches, many of them repeats.
  let lookFirst = items.length > 1 || savepoints;
  for (let attempt = 1; ; attempt++) {
    const files = new FileJournal(storage, db);
    try {
      const replies = await db.tx((q) => runItems(q, files, items, { savepoints, lookFirst }));
      await files.committed();
      opsMetrics()?.replays.inc(replies.filter((r) => r.replayed).length);
      return replies;
    } catch (err) {
      await files.rolledBack();
      // None of these is an attempt of its own: the same attempt, item by item or looking first.
      // A key race cannot come back for the same key (its reply is stored now, and is read the
      // next time), so races end by themselves; only deadlocks count.
      if (err instanceof ItemFailed && !savepoints) savepoints = true;
      else if (!(err instanceof KeyRace)) {
        if (isDeadlock(err) && attempt < 3) continue;
        throw err;
      }
      lookFirst = true;
      attempt -= 1;
    }
  }
}

/**
 * A write outside the item's role, refused before its handler runs: nothing of it was written,
 * so nothing is rolled back. Its reply is kept under its key like any other refusal.
 */
function refusedByRole(item: WriteItem, fresh: Map<string, StoredReply>): ItemReply | null {
  const reply = roleRefusal(item.route, item.role);
  if (!reply) return null;
  if (item.key !== undefined)
    fresh.set(item.key, { fingerprint: item.fingerprint, status: reply.status, reply: reply.body });
  return { ...reply, replayed: false };
}

async function runItems(
  q: Query,
  files: FileJournal,
  items: readonly WriteItem[],
  { savepoints, lookFirst }: { savepoints: boolean; lookFirst: boolean },
): Promise<ItemReply[]> {
  // A run again: what the rolled-back attempt took of the early hashes may be taken again.
  rewindPrehashed();
  const keys = items.flatMap((i) => (i.key === undefined ? [] : [i.key]));
  // One request, one session: every item of a call is the same administrator's.
  const owner = items[0]?.adminId ?? 0;
  const stored = lookFirst ? await storedReplies(q, owner, keys) : new Map<string, StoredReply>();
  const fresh = new Map<string, StoredReply>();
  const audited: StoredChange[] = [];
  const out: ItemReply[] = [];
  for (const item of items) {
    const earlier = item.key === undefined ? undefined : (fresh.get(item.key) ?? stored.get(item.key));
    const answer = (earlier && answerFromStore(earlier, item)) || refusedByRole(item, fresh);
    if (answer) {
      out.push(answer);
      continue;
    }
    const journal = files.forItem();
    if (savepoints) await q('SAVEPOINT write_item');
    const audit = new ItemAudit();
    let reply: ApiReply;
    try {
      reply = await item.route.handler({
        q,
        query: item.query,
        body: item.body,
        adminId: item.adminId,
        uploads: journal,
        audit,
      });
    } catch (err) {
      // A constraint the database enforces is a refusal (4xx), never a 500 that would be retried.
      const refused = constraintRefusal(err);
      // A stack trace is for the server's log, never for the client (logged once: when the
      // item runs again in its savepoint).
      if (!refused && savepoints) requestLog().error({ err }, `${item.label} failed`);
      reply = refused ?? refuse(500, TEXT.internal);
    }
    // Reads travel in batches too (a record fetched before its edit): they record nothing.
    if (item.route.writes && reply.status >= 200 && reply.status < 300 && audit.changes.length === 0) {
      if (savepoints) requestLog().error(`${item.label} succeeded without an audit entry: not committed`);
      reply = refuse(500, TEXT.internal);
    }
    const succeeded = reply.status >= 200 && reply.status < 300;
    if (!savepoints) {
      if (!succeeded) {
        await journal.discard();
        throw new ItemFailed();
      }
    } else if (succeeded) await q('RELEASE SAVEPOINT write_item');
    else {
      await q('ROLLBACK TO SAVEPOINT write_item');
      await q('RELEASE SAVEPOINT write_item');
      await journal.discard();
    }
    if (succeeded) {
      journal.keep();
      const origin = { adminId: item.adminId, madeAt: item.madeAt ?? null, device: item.device ?? null };
      for (const change of audit.changes) audited.push({ ...change, ...origin });
    }
    if (reply.status < 500 && item.key !== undefined)
      fresh.set(item.key, { fingerprint: item.fingerprint, status: reply.status, reply: reply.body });
    out.push({ ...reply, replayed: false });
  }
  await files.record(q);
  const alongside = audited.length > 0 ? auditInsert(audited) : null;
  const taken = await insertReplies(q, owner, fresh, { alongside, unownedTaken: !lookFirst });
  if (taken.length > 0) throw new KeyRace();
  return out;
}
