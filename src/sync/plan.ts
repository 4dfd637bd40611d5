/**
 * Which outbox entries may go now, and what each of the others waits for (rule 3). An entry
 * waits while an earlier unfinished entry touches the same record or a parent it names;
 * entries that share nothing may go concurrently. Replay uses the plan to claim entries;
 * the outbox screen uses it to say why a change waits.
 */
import { entityByName } from '../contract/entities';
import type { OutboxEntry } from '../db/outbox-entry';
import { buildRequest, type IdResolver, referencedIds } from './requests';

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
  const resolveRef = (ref: string) => {
    const at = ref.indexOf(':');
    const id = ref.slice(at + 1);
    return `${ref.slice(0, at)}:${resolve(id) ?? id}`;
  };
  /** The latest unfinished entry touching each record. */
  const holder = new Map<string, OutboxEntry>();
  const plan: QueuePlan = { ready: [], waitsFor: new Map(), orphans: [] };
  for (const entry of [...entries].sort((a, b) => a.seq! - b.seq!)) {
    const entity = entityByName(entry.entity);
    const refs = referencedIds(entity, entry).map(resolveRef);
    const blocker = refs.map((r) => holder.get(r)).find((e) => e !== undefined);
    for (const r of refs) holder.set(r, entry);
    if (blocker) {
      plan.waitsFor.set(entry.seq!, blocker);
      continue;
    }
    if (entry.status !== 'pending' || entry.nextAttemptAt > now || plan.ready.length >= limit) continue;
    if (buildRequest(entity, entry, resolve) === null) plan.orphans.push(entry);
    else plan.ready.push(entry);
  }
  return plan;
}
