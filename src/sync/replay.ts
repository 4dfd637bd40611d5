/**
 * Replay: sends outbox entries to the server and applies the replies. The same code runs in
 * the service worker (Background Sync) and in the window (fallback), one replayer at a time
 * through a Web Lock.
 *
 * The loop plans (plan.ts: what may go now, rule 3), claims what is ready (queue-state.ts:
 * marked 'sending', attempt counted, rule 2), and sends it in rounds of up to one batch each
 * (round.ts), several rounds in flight, so independent changes pipeline while each chain
 * stays in order. When a round ends it plans again; when nothing is in flight and nothing is
 * ready it reads the outbox once more for changes saved meanwhile, and stops. A round the
 * server answered ends the waits of changes whose attempt got no answer (recovery.ts).
 *
 * Only the signed-in administrator's changes are sent: the session is theirs, and
 * another administrator's changes made on this device wait for their author to sign in.
 */
import { BATCH_MAX_ITEMS } from '../contract/batch';
import { deviceId } from '../db/audit/device-id';
import { patchSyncState, readSignedInUser, readSyncState } from '../db/meta';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { releaseDeadClaims } from './dead-claims';
import { SYNC_LOCK, withLock } from './lock';
import { planQueue } from './plan';
import { QueueState } from './queue-state';
import { networkWaitsDue } from './recovery';
import { emptyReport, finishReport, type ReplayReport, tally } from './replay-report';
import { sendRound } from './round';
import { unconfirmedError } from './stranded';
import type { SyncContext } from './sync-context';
import { createTransport } from './transport';

export type { ReplayReport } from './replay-report';
export type { SyncContext } from './sync-context';

/**
 * Entries in flight at once: eight rounds of a batch each. The transport has two batches at
 * the server (one applied, one waiting); the others are claimed and built, ready to leave the
 * moment a reply comes, while the device applies that reply. Rounds come back smaller than a
 * batch (a chain's next change, a dependent add), and the transport fills a batch from every
 * round waiting: with eight, batches leave fuller and one is ready whenever a slot frees, even
 * while several replies' writes queue on the device (fewer leave the server idle between them).
 */
const ROUNDS_IN_FLIGHT = 8;

/** An edit (or a set) that meets the server's record before it goes: a round trip more. */
const needsMerge = (e: OutboxEntry) => (e.op === 'update' || e.op === 'relate') && !e.sent && !e.confirmedAt;

/**
 * The claimed entries in rounds of at most `size`: edits that read the server's record first
 * go in rounds of their own, so that the other writes leave at once instead of waiting for
 * those reads.
 */
function intoRounds(claimed: readonly OutboxEntry[], size: number): OutboxEntry[][] {
  const rounds: OutboxEntry[][] = [];
  for (const group of [claimed.filter(needsMerge), claimed.filter((e) => !needsMerge(e))])
    for (let i = 0; i < group.length; i += size) rounds.push(group.slice(i, i + size));
  return rounds;
}

async function replayLocked(ctx: SyncContext): Promise<ReplayReport> {
  const { db } = ctx;
  const report = emptyReport();
  if ((await readSyncState(db)).authRequired) return { ...report, paused: true };
  // Read once; each claim checks it still holds (queue-state.ts), so a sign-out or another
  // administrator's sign-in during the run stops it from sending.
  const author = await readSignedInUser(db);
  // Still 'sending' means its replayer died mid-request; the reply never got here.
  await releaseDeadClaims(db);

  const limit = ctx.concurrency ?? ROUNDS_IN_FLIGHT * BATCH_MAX_ITEMS;
  const roundSize = Math.min(BATCH_MAX_ITEMS, limit);
  const base = { db, api: ctx.api, transport: createTransport(ctx.api, { device: await deviceId(db) }) };
  const inFlight = new Set<Promise<void>>();
  let sending = 0;
  let state = await QueueState.load(db);
  /** The state was just read from storage: if nothing is ready now, nothing is. */
  let fresh = true;

  /** Sends one round; when it lands, the state follows and waits for the server may end. */
  const start = (entries: OutboxEntry[]) => {
    sending += entries.length;
    const seqs = entries.map((e) => e.seq);
    const job = sendRound(base, state, entries).then(
      async (results) => {
        tally(report, results);
        // A confirmed entry left the outbox; any other changed where it stands.
        for (const [seq, result] of results) if (result === 'sent') state.entries.delete(seq);
        await state.reread(
          db,
          seqs.filter((seq) => results.get(seq) !== 'sent'),
        );
        // The server answered: changes waiting for it to be reachable go now (recovery.ts).
        if ([...results.values()].some((r) => r === 'sent' || r === 'failed' || r === 'conflict')) {
          const waiting = state.waitingForServer(Date.now());
          if (waiting.length > 0) {
            await networkWaitsDue(db, waiting);
            await state.reread(db, waiting);
          }
        }
      },
      async (error) => {
        // A bug or a storage error: leave the round's entries to be sent again, never drop them.
        await db.outbox
          .where('seq')
          .anyOf(seqs)
          .and((e) => e.status === 'sending')
          .modify({ status: 'pending', lastError: String(error) });
        await state.reread(db, seqs);
      },
    );
    const tracked = job.finally(() => {
      inFlight.delete(tracked);
      sending -= entries.length;
    });
    inFlight.add(tracked);
  };

  await patchSyncState(db, { syncing: true });
  try {
    for (;;) {
      // The first round alone, so that it leaves as soon as it is claimed; then the room the
      // rounds in flight leave, once there is room for a whole round (or the rounds would
      // shrink with every round that came back small).
      while (!report.paused && (sending === 0 || limit - sending >= roundSize)) {
        report.offline = ctx.online?.() === false;
        if (report.offline) break;
        const room = sending === 0 ? roundSize : limit - sending;
        const plan = planQueue(state.all(), state.resolve, Date.now(), room, author);
        for (const orphan of plan.orphans) {
          const lastError = await unconfirmedError(db, orphan, state.resolve);
          await db.outbox.update(orphan.seq, { status: 'failed', lastError });
          await state.reread(db, [orphan.seq]);
        }
        const claimed = await state.claim(db, plan.ready, author);
        if (claimed.length === 0) break;
        for (const round of intoRounds(claimed, roundSize)) start(round);
      }
      if (inFlight.size === 0) {
        // Nothing in flight and nothing ready: look once more for changes saved meanwhile.
        if (fresh || report.paused || report.offline) break;
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
