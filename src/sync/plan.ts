/**
 * Which outbox entries may go now, and what each of the others waits for (rule 3). An entry
 * waits while an earlier unfinished entry changes the same record, a parent it names, or a
 * child naming its record (a parent's delete waits for its children's moves and deletes);
 * other entries go concurrently. Replay uses the plan to claim entries; the outbox screen
 * uses it to say why a change waits. Readiness is decided from ids alone: no request is built.
 */
import { entityByName } from '../contract/entities';
import type { OutboxEntry } from '../db/outbox-entry';
import { type IdResolver, type RecordRef, referencedRecords, resolveEntry } from './entry-request';

export interface QueuePlan {
  /** May be sent now, oldest first, at most `limit`. */
  ready: OutboxEntry[];
  /** For a waiting entry, the earlier entry it waits on (by seq). */
  waitsFor: Map<number, OutboxEntry>;
  /** Name a record that nothing earlier will create: they can never be sent as they are. */
  orphans: OutboxEntry[];
}

export function planQueue(
  entries: readonly OutboxEntry[],
  resolve: IdResolver,
  now: number,
  limit = Number.POSITIVE_INFINITY,
): QueuePlan {
  /** One map per entity, keyed by the record's server id where known: a record is one key whatever id it was named by. */
  const keyOf = (ref: RecordRef) => `${ref.entity}\u0000${resolve(ref.id) ?? ref.id}`;
  /** The latest earlier entry of each record. */
  const ofRecord = new Map<string, OutboxEntry>();
  /** An earlier entry naming each record as a parent (any one: all come before). */
  const childOf = new Map<string, OutboxEntry>();
  const plan: QueuePlan = { ready: [], waitsFor: new Map(), orphans: [] };
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    const entity = entityByName(entry.entity);
    const [self, ...parents] = referencedRecords(entity, entry).map(keyOf);
    // Same record, a parent's change, or a change of a child naming this record; siblings
    // (two books of one series) do not wait for each other.
    const blocker =
      ofRecord.get(self) ??
      parents.map((p) => ofRecord.get(p)).find((e) => e !== undefined) ??
      childOf.get(self);
    ofRecord.set(self, entry);
    for (const p of parents) if (!childOf.has(p)) childOf.set(p, entry);
    if (blocker) {
      plan.waitsFor.set(entry.seq, blocker);
      continue;
    }
    if (entry.status !== 'pending' || entry.nextAttemptAt > now || plan.ready.length >= limit) continue;
    if (resolveEntry(entity, entry, resolve) === null) plan.orphans.push(entry);
    else plan.ready.push(entry);
  }
  return plan;
}
