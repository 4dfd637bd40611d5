/**
 * One round of replay: a group of independent entries (the plan guarantees they touch
 * different records) sent together and applied together.
 *
 * 1. Edits first fetch their record as the server has it and merge (merge-with-server.ts).
 * 2. Every request of the round is handed to the transport at once, which batches what it can.
 * 3. Adds whose reply carries no id (the legacy server) learn it with one refetch per entity.
 * 4. Every outcome's write is asked of ONE group commit, which is then flushed: a round's
 *    replies are applied in one IndexedDB transaction, each write succeeding or failing alone.
 * 5. The replayer's view of the queue (QueueState) follows what was committed.
 *
 * Exactly once (rules 1 and 2): the entries were marked 'sending' with their attempt counted
 * before the round began (QueueState.claim), and each leaves the outbox only in the
 * transaction that applies its confirmed reply.
 */
import { entityByName } from '../contract/entities';
import { KEY_REUSED } from '../contract/idempotency';
import { groupCommit } from '../db/outbox/group-commit';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { classify, type Verdict } from './classify';
import { entryRequest } from './entry-request';
import { idFromReply, type Learned, learnIdsByRefetch } from './learn-id';
import { mergeEdits } from './merge/merge-with-server';
import type { QueueState } from './queue-state';
import type { Round } from './round-context';
import { type SendResult, settle } from './settle';
import type { Outgoing } from './transport';
import { prepareFiles } from './uploads/upload-files';

const LOOKUP_FAILED = 'The server saved this record but its id could not be found; refresh to see it.';

export async function sendRound(
  base: Omit<Round, 'commits' | 'resolve'>,
  state: QueueState,
  entries: readonly OutboxEntry[],
): Promise<Map<number, SendResult>> {
  const round: Round = { ...base, commits: groupCommit(base.db), resolve: state.resolve };
  const { db, commits } = round;
  const pending = new Map<number, Promise<SendResult>>();
  /** Confirmed adds and what they learned, applied after the flush. */
  const confirmed = new Map<number, { entry: OutboxEntry; serverId: string }>();

  // 1. Edits meet the server's record first.
  const merged = await mergeEdits(
    round,
    entries.filter((e) => e.op === 'update' || e.op === 'relate'),
  );
  const toSend: OutboxEntry[] = [];
  /** Adds the server confirmed before (their reply was processed) that only need their id. */
  const needId: OutboxEntry[] = [];
  for (const entry of entries) {
    const m = merged.get(entry.seq) ?? entry;
    if (m instanceof Promise) pending.set(entry.seq, m);
    else if (m.confirmedAt) needId.push(m);
    else toSend.push(m);
  }

  // 2. Every request at once.
  const outgoing: { entry: OutboxEntry; item: Outgoing }[] = [];
  for (const entry of toSend) {
    const built = entryRequest(entry, round.resolve, round.api.root);
    // Large files travel ahead, in resumable chunks (upload-files.ts); the request names them.
    const request = built && (await prepareFiles(round, entry, built));
    if (request && 'method' in request)
      outgoing.push({ entry, item: { request, key: entry.id, madeAt: entry.createdAt } });
    else if (request) pending.set(entry.seq, settle(db, commits, entry, request));
    else
      pending.set(
        entry.seq,
        settle(db, commits, entry, { kind: 'retry', reason: 'Waiting for a record it refers to' }),
      );
  }
  const outcomes = await round.transport.sendAll(outgoing.map((o) => o.item));

  const verdicts = new Map<number, Verdict>();
  outgoing.forEach(({ entry }, i) => {
    verdicts.set(entry.seq, sentFromAnotherCopy(entry, classify(outcomes[i], entry.op)));
  });

  // 3. Adds without an id in their reply learn it by refetching, once per entity.
  for (const { entry } of outgoing) {
    const verdict = verdicts.get(entry.seq)!;
    if (verdict.kind !== 'done') continue;
    if (!namesRecord(entry)) continue;
    const id = idFromReply(entityByName(entry.entity), verdict.body);
    if (id === null) needId.push(entry);
    else confirmed.set(entry.seq, { entry, serverId: id });
  }
  const learned = await learnIds(round, needId);

  // 4. Every write of the round into one group, then one commit.
  for (const { entry } of outgoing) {
    const verdict = verdicts.get(entry.seq)!;
    if (verdict.kind !== 'done') pending.set(entry.seq, settle(db, commits, entry, verdict));
    else if (!namesRecord(entry))
      pending.set(
        entry.seq,
        commits.remove(entry.seq).then((): SendResult => 'sent'),
      );
  }
  for (const entry of needId) {
    const got = learned.get(entry.seq) ?? null;
    if (typeof got === 'string') confirmed.set(entry.seq, { entry, serverId: got });
    else pending.set(entry.seq, keepConfirmed(round, entry, got));
  }
  for (const { entry, serverId } of confirmed.values()) {
    const add = { entity: entry.entity, tempId: entry.key, serverId, seq: entry.seq };
    pending.set(
      entry.seq,
      commits.confirmAdd(add).then((): SendResult => 'sent'),
    );
  }
  await commits.flush();

  // 5. The replayer's view follows what was committed.
  const results = await settledResults(round, pending);
  for (const [seq, result] of results) {
    const done = confirmed.get(seq);
    if (result === 'sent' && done) state.confirmAdd(done.entry.entity, done.entry.key, done.serverId);
  }
  return results;
}

/**
 * A change carried to another device in a file (`copied`, src/db/saved-queue/gather-and-load.ts) is sent by
 * both under one key. An edit merges with the server's record before it goes (rule 5), so the
 * second copy may differ from the first when the record changed in between, and the server
 * refuses it as a key used for another request: the first copy, which took effect. Such an
 * edit, set or relation is delivered. An add always goes as it was made (its reply gives the
 * id), so its refusal stays a refusal.
 */
function sentFromAnotherCopy(entry: OutboxEntry, verdict: Verdict): Verdict {
  if (!entry.copied || entry.op === 'add' || verdict.kind !== 'failed') return verdict;
  if (verdict.status !== 422 || verdict.message !== KEY_REUSED) return verdict;
  return { kind: 'done', body: { success: true }, replayed: true };
}

/** Each entry's result once its writes are committed (or have failed). */
async function settledResults(
  round: Round,
  pending: ReadonlyMap<number, Promise<SendResult>>,
): Promise<Map<number, SendResult>> {
  const results = new Map<number, SendResult>();
  await Promise.all(
    [...pending].map(async ([seq, result]) => {
      try {
        results.set(seq, await result);
      } catch (error) {
        // A storage error: leave the entry to be sent again, never drop it.
        await round.db.outbox.update(seq, { status: 'pending', lastError: String(error) });
        results.set(seq, 'retry');
      }
    }),
  );
  return results;
}

/** An add that the server names: not a single document's, whose one key never changes. */
const namesRecord = (entry: OutboxEntry) => entry.op === 'add' && !entityByName(entry.entity).single;

async function learnIds(round: Round, adds: readonly OutboxEntry[]): Promise<Map<number, Learned>> {
  const byEntity = new Map<string, OutboxEntry[]>();
  for (const add of adds) byEntity.set(add.entity, [...(byEntity.get(add.entity) ?? []), add]);
  const learned = new Map<number, Learned>();
  for (const [name, list] of byEntity) {
    const got = await learnIdsByRefetch(round.db, round.api, entityByName(name), list, round.resolve);
    for (const [seq, value] of got) learned.set(seq, value);
  }
  return learned;
}

/**
 * A confirmed add whose id could not be learned is kept as confirmed, so that only the lookup
 * is retried, never the add (rule 2).
 */
function keepConfirmed(
  round: Round,
  entry: OutboxEntry,
  learned: Exclude<Learned, string>,
): Promise<SendResult> {
  const { db, commits } = round;
  const marked = commits.write(() =>
    db.outbox.update(entry.seq, { confirmedAt: entry.confirmedAt ?? Date.now() }),
  );
  const verdict = learned ?? { kind: 'failed' as const, message: LOOKUP_FAILED, status: 200 };
  return Promise.all([marked, settle(db, commits, entry, verdict)]).then(([, result]) => result);
}
