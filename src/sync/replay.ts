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
import { entityByName } from '../contract/entities';
import type { LocalDb } from '../db/database';
import { restoreBase } from '../db/discard';
import { patchSyncState, readSyncState } from '../db/meta';
import type { OutboxEntry } from '../db/outbox-entry';
import { applyServerId } from '../db/rekey';
import { loadIdResolver } from '../db/resolve';
import type { ApiClient } from './api';
import { backoffMs, classify } from './classify';
import { idFromReply, learnIdByRefetch } from './learn-id';
import { SYNC_LOCK, withLock } from './lock';
import { buildRequest, referencedIds } from './requests';

export interface SyncContext {
  db: LocalDb;
  api: ApiClient;
  /** Requests in flight at once; independent entries only. */
  concurrency?: number;
}

export interface ReplayReport {
  sent: number;
  failed: number;
  /** Entries still waiting for a retry. */
  waiting: number;
  /** The server asked for a new sign-in; nothing more is sent until then. */
  paused: boolean;
  /** When the earliest waiting entry may be retried (epoch ms), if any. */
  nextAttemptAt: number | null;
}

const ORPHAN = 'It refers to a record the server has not confirmed, so it cannot be sent.';

/** Picks entries that may go now and marks them 'sending', in one transaction. */
async function claimReady(db: LocalDb, limit: number): Promise<OutboxEntry[]> {
  if (limit <= 0) return [];
  return db.transaction('rw', db.outbox, db.idmap, async () => {
    const resolve = await loadIdResolver(db);
    const resolveRef = (ref: string) => {
      const at = ref.indexOf(':');
      return `${ref.slice(0, at)}:${resolve(ref.slice(at + 1)) ?? ref.slice(at + 1)}`;
    };
    const entries = await db.outbox.orderBy('seq').toArray();
    const busy = new Set<string>();
    const ready: OutboxEntry[] = [];
    const now = Date.now();
    for (const entry of entries) {
      const entity = entityByName(entry.entity);
      const refs = referencedIds(entity, entry).map(resolveRef);
      const blocked = refs.some((r) => busy.has(r));
      for (const r of refs) busy.add(r);
      if (blocked || entry.status !== 'pending' || entry.nextAttemptAt > now || ready.length >= limit)
        continue;
      if (buildRequest(entity, entry, resolve) === null) {
        // Nothing earlier will create the record it names: it can never be sent as it is.
        await db.outbox.update(entry.seq!, { status: 'failed', lastError: ORPHAN });
        continue;
      }
      ready.push(entry);
    }
    for (const entry of ready) {
      entry.attempts += 1;
      entry.status = 'sending';
      await db.outbox.update(entry.seq!, { status: 'sending', attempts: entry.attempts });
    }
    return ready;
  });
}

type SendResult = 'sent' | 'failed' | 'retry' | 'auth';

async function sendOne(ctx: SyncContext, entry: OutboxEntry): Promise<SendResult> {
  const { db, api } = ctx;
  const entity = entityByName(entry.entity);
  const built = buildRequest(entity, entry, await loadIdResolver(db));
  if (!built) {
    await db.outbox.update(entry.seq!, { status: 'pending' });
    return 'retry';
  }
  const outcome = await api.request(built.path, { ...built.options, idempotencyKey: entry.id });
  const verdict = classify(outcome, entry.op);

  switch (verdict.kind) {
    case 'done': {
      if (entry.op === 'add') {
        const serverId =
          idFromReply(entity, verdict.body) ?? (await learnIdByRefetch(db, api, entity, entry));
        if (serverId !== null) {
          await applyServerId(db, entity.name, entry.key, serverId, entry.seq!);
          return 'sent';
        }
      }
      await db.outbox.delete(entry.seq!);
      return 'sent';
    }
    case 'retry':
      await db.outbox.update(entry.seq!, {
        status: 'pending',
        // The server's Retry-After wins over our own backoff (503 during maintenance).
        nextAttemptAt: Date.now() + (verdict.afterMs ?? backoffMs(entry.attempts)),

        lastError: verdict.reason,
      });
      return 'retry';
    case 'auth':
      await db.outbox.update(entry.seq!, { status: 'pending' });
      await patchSyncState(db, { authRequired: true });
      return 'auth';
    case 'failed':
      await db.transaction('rw', [db.outbox, db.rows(entity)], async () => {
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

async function replayLocked(ctx: SyncContext): Promise<ReplayReport> {
  const { db } = ctx;
  const report: ReplayReport = { sent: 0, failed: 0, waiting: 0, paused: false, nextAttemptAt: null };
  if ((await readSyncState(db)).authRequired) {
    report.paused = true;
    return report;
  }
  // Still 'sending' means its replayer died mid-request; the reply never got here.
  await db.outbox.where('status').equals('sending').modify({ status: 'pending' });

  const concurrency = ctx.concurrency ?? 6;
  const inFlight = new Map<number, Promise<void>>();
  await patchSyncState(db, { syncing: true });
  try {
    for (;;) {
      if (!report.paused) {
        for (const entry of await claimReady(db, concurrency - inFlight.size)) {
          const job = sendOne(ctx, entry).then(
            (result) => {
              if (result === 'sent') report.sent += 1;
              else if (result === 'failed') report.failed += 1;
              else if (result === 'auth') report.paused = true;
            },
            async (error) => {
              // A bug or a storage error: leave the entry to be sent again, never drop it.
              await db.outbox.update(entry.seq!, { status: 'pending', lastError: String(error) });
            },
          );
          inFlight.set(
            entry.seq!,
            job.finally(() => inFlight.delete(entry.seq!)),
          );
        }
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight.values());
    }
  } finally {
    await patchSyncState(db, { syncing: false });
  }
  const waiting = await db.outbox.where('status').equals('pending').toArray();
  report.waiting = waiting.length;
  report.nextAttemptAt = waiting.length ? Math.min(...waiting.map((e) => e.nextAttemptAt)) : null;
  return report;
}

export function replay(ctx: SyncContext): Promise<ReplayReport> {
  return withLock(SYNC_LOCK, () => replayLocked(ctx));
}
