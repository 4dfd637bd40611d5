/**
 * Which outbox entries may go now, and what each of the others waits for (rule 3). An entry
 * waits while an earlier unfinished entry changes the same record, a parent it names, or a
 * child naming its record (a parent's delete waits for its children's moves and deletes);
 * other entries go concurrently. Replay uses the plan to claim entries; the outbox screen
 * uses it to say why a change waits. Readiness is decided from ids alone: no request is built.
 *
 * Given the administrator signed in, another administrator's entries are never ready (issue
 * 12: they go under their author's session only); they still hold the entries that come
 * after them on the same records, as any unfinished entry does.
 */
import { entityByName } from '../contract/entities';
import { belongsTo, type OutboxEntry } from '../db/outbox/outbox-entry';
import { type IdResolver, type RecordRef, referencedRecords, resolveEntry } from './entry-request';

export interface QueuePlan {
  /** May be sent now, oldest first, at most `limit`. */
  ready: OutboxEntry[];
  /** For a waiting entry, the earlier entry it waits on (by seq). */
  waitsFor: Map<number, OutboxEntry>;
  /** Name a record that nothing earlier will create: they can never be sent as they are. */
  orphans: OutboxEntry[];
  /** Another administrator's entries (by seq, with the author): they wait for that author. */
  heldFor: Map<number, string>;
  /** Those and every entry waiting behind one of them: nothing sends them before that author. */
  onHold: Set<number>;
}

/**
 * `author`: the administrator signed in (null: nobody); another's entries are held. Absent:
 * whoever made them, every entry may go (for callers that do not send).
 */
export function planQueue(
  entries: readonly OutboxEntry[],
  resolve: IdResolver,
  now: number,
  limit = Number.POSITIVE_INFINITY,
  author?: string | null,
): QueuePlan {
  /** One map per entity, keyed by the record's server id where known: a record is one key whatever id it was named by. */
  const keyOf = (ref: RecordRef) => `${ref.entity}\u0000${resolve(ref.id) ?? ref.id}`;
  /** The latest earlier entry of each record. */
  const ofRecord = new Map<string, OutboxEntry>();
  /** An earlier entry naming each record as a parent (any one: all come before). */
  const childOf = new Map<string, OutboxEntry>();
  const plan: QueuePlan = {
    ready: [],
    waitsFor: new Map(),
    orphans: [],
    heldFor: new Map(),
    onHold: new Set(),
  };
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
    if (author !== undefined && !belongsTo(entry, author)) {
      plan.heldFor.set(entry.seq, entry.author ?? '');
      plan.onHold.add(entry.seq);
    }
    if (blocker && plan.onHold.has(blocker.seq)) plan.onHold.add(entry.seq);
    if (blocker) {
      plan.waitsFor.set(entry.seq, blocker);
      continue;
    }
    if (plan.heldFor.has(entry.seq)) continue;
    if (entry.status !== 'pending' || entry.nextAttemptAt > now || plan.ready.length >= limit) continue;
    if (resolveEntry(entity, entry, resolve) === null) plan.orphans.push(entry);
    else plan.ready.push(entry);
  }
  return plan;
}
