/**
 * Replay: sends outbox entries to the server and applies the replies. The same code runs in
 * the service worker (Background Sync) and in the window (fallback), one replayer at a time
 * through a Web Lock.
 *
 * The loop plans (plan.ts: what may go now, rule 3), claims what is ready (queue-state.ts:
 * marked 'sending', attempt counted, rule 2), and sends it in rounds of up to one batch each
 * (round.ts), several rounds in flight, so independent changes pipeline while each chain
 * stays in order. When a round ends it plans again; when nothing is in flight and nothing is
 * ready it reads the outbox once more for changes saved meanwhile, and stops.
 *
 * Only the signed-in administrator's changes are sent (issue 12): the session is theirs, and
 * another administrator's changes made on this device wait for their author to sign in.
 */
import { BATCH_MAX_ITEMS } from '../contract/batch';
import { deviceId } from '../db/device-id';
import { patchSyncState, readSignedInUser, readSyncState } from '../db/meta';
import type { SyncContext } from './context';
import { SYNC_LOCK, withLock } from './lock';
import { planQueue } from './plan';
import { QueueState } from './queue-state';
import { emptyReport, finishReport, type ReplayReport, tally } from './replay-report';
import { sendRound } from './round';
import { createTransport } from './transport';

export type { SyncContext } from './context';
export type { ReplayReport } from './replay-report';

const ORPHAN = 'It refers to a record the server has not confirmed, so it cannot be sent.';

/** Rounds in flight at once: one being applied, one travelling, one being prepared. */
const ROUNDS_IN_FLIGHT = 3;

async function replayLocked(ctx: SyncContext): Promise<ReplayReport> {
  const { db } = ctx;
  const report = emptyReport();
  if ((await readSyncState(db)).authRequired) return { ...report, paused: true };
  // Read once: a sign-in by someone else ends this session's replay anyway (401 or a new run).
  const author = await readSignedInUser(db);
  // Still 'sending' means its replayer died mid-request; the reply never got here.
  await db.outbox.where('status').equals('sending').modify({ status: 'pending' });

  const limit = ctx.concurrency ?? ROUNDS_IN_FLIGHT * BATCH_MAX_ITEMS;
  const roundSize = Math.min(BATCH_MAX_ITEMS, limit);
  const maxRounds = Math.max(1, Math.ceil(limit / roundSize));
  const base = { db, api: ctx.api, transport: createTransport(ctx.api, { device: await deviceId(db) }) };
  const inFlight = new Set<Promise<void>>();
  let state = await QueueState.load(db);
  /** The state was just read from storage: if nothing is ready now, nothing is. */
  let fresh = true;
  await patchSyncState(db, { syncing: true });
  try {
    for (;;) {
      const room = (maxRounds - inFlight.size) * roundSize;
      if (!report.paused && room > 0) {
        const plan = planQueue(state.all(), state.resolve, Date.now(), room, author);
        for (const orphan of plan.orphans) {
          await db.outbox.update(orphan.seq, { status: 'failed', lastError: ORPHAN });
          await state.reread(db, orphan.seq);
        }
        const claimed = await state.claim(db, plan.ready);
        for (let i = 0; i < claimed.length; i += roundSize) {
          const entries = claimed.slice(i, i + roundSize);
          const job = sendRound(base, state, entries).then(
            async (results) => {
              tally(report, results);
              // A confirmed entry left the outbox; any other changed where it stands.
              for (const [seq, result] of results) {
                if (result === 'sent') state.entries.delete(seq);
                else await state.reread(db, seq);
              }
            },
            async (error) => {
              // A bug or a storage error: leave the round's entries to be sent again, never drop them.
              const seqs = entries.map((e) => e.seq);
              await db.outbox
                .where('seq')
                .anyOf(seqs)
                .and((e) => e.status === 'sending')
                .modify({ status: 'pending', lastError: String(error) });
              for (const seq of seqs) await state.reread(db, seq);
            },
          );
          const tracked = job.finally(() => inFlight.delete(tracked));
          inFlight.add(tracked);
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
      await Promise.race(inFlight);
    }
  } finally {
    await patchSyncState(db, { syncing: false });
  }
  const last = planQueue(state.all(), state.resolve, Date.now(), Number.POSITIVE_INFINITY, author);
  return finishReport(db, report, last.onHold);
}

export function replay(ctx: SyncContext): Promise<ReplayReport> {
  return withLock(SYNC_LOCK, () => replayLocked(ctx));
}
