/**
 * Replay: sends outbox entries to the server and applies the replies. The same code runs in
 * the service worker (Background Sync) and in the window (fallback), one replayer at a time
 * through a Web Lock.
 *
 * Order (rule 3): an entry waits while an earlier unfinished entry touches the same record
 * or one of its parents, or while a parent it names has no server id yet. Entries that
 * share nothing go out concurrently, so independent changes pipeline while each chain stays
 * in order.
 *
 * Exactly once (rules 1 and 2): an entry is marked 'sending' with its attempt counted before
 * the request leaves, and deleted only in the transaction that applies a confirmed reply.
 * A replayer that dies mid-request leaves it 'sending'; the next one sends it again with the
 * same Idempotency-Key, which our server answers from its stored reply.
 */
import { BATCH_MAX_ITEMS } from '../contract/batch';
import { entityByName } from '../contract/entities';
import type { LocalDb } from '../db/database';
import { restoreBase } from '../db/discard';
import { type GroupCommit, groupCommit } from '../db/group-commit';
import { patchSyncState, readSyncState } from '../db/meta';
import type { FieldValue, OutboxEntry } from '../db/outbox-entry';
import type { ApiClient } from './api';
import { withBatching } from './batching-api';
import { backoffMs, classify, type Verdict } from './classify';
import { currentRecord } from './current-record';
import { idFromReply, learnIdByRefetch } from './learn-id';
import { SYNC_LOCK, withLock } from './lock';
import { mergeEdit } from './merge-edit';
import { planQueue } from './plan';
import { QueueState } from './queue-state';
import { buildRequest, resolveRefs } from './requests';
import { prepareFiles } from './upload-files';

export interface SyncContext {
  db: LocalDb;
  api: ApiClient;
  /** Requests in flight at once; independent entries only. */
  concurrency?: number;
}

/** What one replayer works with: replies are applied through group commits. */
interface Replayer extends SyncContext {
  commits: GroupCommit;
}

export interface ReplayReport {
  sent: number;
  /** Refused by the server, or held for the administrator by a conflict. */
  failed: number;
  /** Entries still waiting for a retry. */
  waiting: number;
  /** The server asked for a new sign-in; nothing more is sent until then. */
  paused: boolean;
  /** When the earliest waiting entry may be retried (epoch ms), if any. */
  nextAttemptAt: number | null;
}

const ORPHAN = 'It refers to a record the server has not confirmed, so it cannot be sent.';

type SendResult = 'sent' | 'failed' | 'retry' | 'auth' | 'conflict';

/** Records what a verdict means for the entry; 'done' is the caller's. */
async function settle(
  ctx: Replayer,
  entry: OutboxEntry,
  verdict: Exclude<Verdict, { kind: 'done' }>,
): Promise<SendResult> {
  const { db } = ctx;
  switch (verdict.kind) {
    case 'retry':
      await ctx.commits.write(() =>
        db.outbox.update(entry.seq!, {
          status: 'pending',
          // The server's Retry-After wins over our own backoff (503 during maintenance).
          nextAttemptAt: Date.now() + (verdict.afterMs ?? backoffMs(entry.attempts)),
          lastError: verdict.reason,
        }),
      );
      return 'retry';
    case 'auth':
      await ctx.commits.write(async () => {
        await db.outbox.update(entry.seq!, { status: 'pending' });
        await patchSyncState(db, { authRequired: true });
      });
      return 'auth';
    case 'failed':
      await ctx.commits.write(async () => {
        await db.outbox.update(entry.seq!, {
          status: 'failed',
          lastError: verdict.message ?? `The server refused the change (status ${verdict.status})`,
        });
        // The server still has the record: show it again until the administrator decides.
        if (entry.op === 'delete') await restoreBase(db, entry);
      });
      return 'failed';
  }
}

/**
 * Rule 5 before an edit goes out: the record as the server has it now, merged with this
 * device's changes. Returns the entry to send, or what stopped it.
 */
async function mergeWithServer(
  ctx: Replayer,
  state: QueueState,
  entry: OutboxEntry,
  id: string,
): Promise<OutboxEntry | SendResult> {
  const entity = entityByName(entry.entity);
  const current = await currentRecord(ctx.api, entity, id);
  if (current.kind === 'verdict' && current.verdict.kind !== 'failed' && current.verdict.kind !== 'done') {
    return settle(ctx, entry, current.verdict);
  }
  if (current.kind !== 'found') {
    const gone = `This ${entity.names.one} was deleted on the server.`;
    return settle(ctx, entry, { kind: 'failed', message: gone, status: 404 });
  }
  // Parents made offline are compared by the ids the server knows them by: a resent edit
  // (its first reply lost) must not look like a change made on both sides.
  const resolved = (values: Record<string, FieldValue>) => resolveRefs(entity, values, state.resolve);
  const merged = mergeEdit(entity, resolved(entry.base ?? {}), resolved(entry.payload), current.row);

  if (merged.conflicts.length > 0) {
    await ctx.commits.write(() =>
      ctx.db.outbox.update(entry.seq!, {
        status: 'conflict',
        conflict: { fields: merged.conflicts, server: current.row },
        lastError: 'Changed on the server since this edit began',
      }),
    );
    return 'conflict';
  }
  return { ...entry, base: merged.values, payload: {} };
}

async function sendOne(ctx: Replayer, state: QueueState, claimed: OutboxEntry): Promise<SendResult> {
  const { api } = ctx;
  const entity = entityByName(claimed.entity);
  const { resolve } = state;
  let entry = claimed;
  if (entry.op === 'update') {
    const id = resolve(entry.key);
    if (id === null)
      return settle(ctx, entry, { kind: 'retry', reason: 'Waiting for the record to be created' });
    const merged = await mergeWithServer(ctx, state, entry, id);
    if (typeof merged === 'string') return merged;
    entry = merged;
  }
  // An add the server already confirmed only needs its id (see learnNewId).
  if (entry.confirmedAt) return learnNewId(ctx, state, entry, null);
  const built = buildRequest(entity, entry, resolve);
  if (!built) return settle(ctx, entry, { kind: 'retry', reason: 'Waiting for a record it refers to' });
  const ready = await prepareFiles(ctx, entry, built);
  if ('kind' in ready) return settle(ctx, entry, ready);
  const outcome = await api.request(ready.path, { ...ready.options, idempotencyKey: entry.id });
  const verdict = classify(outcome, entry.op);
  if (verdict.kind !== 'done') return settle(ctx, entry, verdict);
  if (entry.op === 'add') return learnNewId(ctx, state, entry, idFromReply(entity, verdict.body));
  await ctx.commits.remove(entry.seq!);
  return 'sent';
}

/**
 * A confirmed add takes its server id everywhere. Without the id in the reply (the legacy
 * server) it is learned by refetching; if that refetch fails, the entry is kept as confirmed
 * so that only the lookup is retried, never the add.
 */
async function learnNewId(
  ctx: Replayer,
  state: QueueState,
  entry: OutboxEntry,
  fromReply: string | null,
): Promise<SendResult> {
  const { db, api } = ctx;
  const entity = entityByName(entry.entity);
  const learned = fromReply ?? (await learnIdByRefetch(db, api, entity, entry, state.resolve));
  if (typeof learned === 'string') {
    await ctx.commits.confirmAdd({
      entity: entity.name,
      tempId: entry.key,
      serverId: learned,
      seq: entry.seq!,
      mayHaveChildren: state.isReferenced(entity.name, entry.key),
    });
    state.confirmAdd(entity.name, entry.key, learned);
    return 'sent';
  }
  await ctx.commits.write(() =>
    db.outbox.update(entry.seq!, { confirmedAt: entry.confirmedAt ?? Date.now() }),
  );
  if (learned === null) {
    const message = 'The server saved this record but its id could not be found; refresh to see it.';
    return settle(ctx, entry, { kind: 'failed', message, status: 200 });
  }
  return settle(ctx, entry, learned);
}

async function replayLocked(given: SyncContext): Promise<ReplayReport> {
  const { db } = given;
  const report: ReplayReport = { sent: 0, failed: 0, waiting: 0, paused: false, nextAttemptAt: null };
  if ((await readSyncState(db)).authRequired) {
    report.paused = true;
    return report;
  }
  // Still 'sending' means its replayer died mid-request; the reply never got here.
  await db.outbox.where('status').equals('sending').modify({ status: 'pending' });

  // Requests made together travel in batches when the server has the extension; without it
  // they go one by one, at most six at a time (batching-api.ts), whatever the concurrency.
  const ctx: Replayer = { ...given, api: withBatching(given.api), commits: groupCommit(db) };
  const concurrency = ctx.concurrency ?? 3 * BATCH_MAX_ITEMS;
  const inFlight = new Map<number, Promise<void>>();
  let state = await QueueState.load(db);
  /** The state was just read from storage: if nothing is ready now, nothing is. */
  let fresh = true;
  await patchSyncState(db, { syncing: true });
  try {
    for (;;) {
      if (!report.paused && inFlight.size < concurrency) {
        const plan = planQueue(state.all(), state.resolve, Date.now(), concurrency - inFlight.size);
        for (const orphan of plan.orphans) {
          await db.outbox.update(orphan.seq!, { status: 'failed', lastError: ORPHAN });
          await state.reread(db, orphan.seq!);
        }
        for (const entry of await state.claim(db, plan.ready)) {
          const seq = entry.seq!;
          const job = sendOne(ctx, state, entry).then(
            (result) => {
              // A confirmed entry left the outbox; any other changed where it stands.
              if (result === 'sent') {
                report.sent += 1;
                state.entries.delete(seq);
                return;
              }
              if (result === 'failed' || result === 'conflict') report.failed += 1;
              else if (result === 'auth') report.paused = true;
              return state.reread(db, seq);
            },
            async (error) => {
              // A bug or a storage error: leave the entry to be sent again, never drop it.
              await db.outbox.update(seq, { status: 'pending', lastError: String(error) });
              await state.reread(db, seq);
            },
          );

          inFlight.set(
            seq,
            job.finally(() => inFlight.delete(seq)),
          );
        }
      }
      if (inFlight.size === 0) {
        // Nothing in flight and nothing ready: look once more for changes saved meanwhile.
        if (fresh || report.paused) break;
        state = await QueueState.load(db);
        fresh = true;
        continue;
      }
      fresh = false;
      await Promise.race(inFlight.values());
      // Replies of one batch land together: let them all settle before planning again
      // (planning looks at the whole queue, so once per group, not once per entry).
      await new Promise((settled) => setTimeout(settled, 0));
    }
  } finally {
    await patchSyncState(db, { syncing: false });
  }
  const waiting = await db.outbox.where('status').equals('pending').toArray();
  report.waiting = waiting.length;
  // A loop, not Math.min(...spread): a long queue would overflow the call's arguments.
  for (const e of waiting)
    report.nextAttemptAt = Math.min(report.nextAttemptAt ?? e.nextAttemptAt, e.nextAttemptAt);
  return report;
}

export function replay(ctx: SyncContext): Promise<ReplayReport> {
  return withLock(SYNC_LOCK, () => replayLocked(ctx));
}
