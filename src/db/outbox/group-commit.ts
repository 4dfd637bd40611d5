/**
 * Group commit: writes gathered and then flushed together share ONE IndexedDB transaction.
 * Replay applies a round's replies together (a hundred confirmed entries arrive at once): it
 * asks for each entry's write, then calls `flush()`. One read-write transaction each cost about
 * half a millisecond on disk and they queued behind each other on the outbox store, which made
 * applying replies the drain's bottleneck.
 *
 * Each write still succeeds or fails on its own: a write that throws is reported to its caller
 * and the others commit (Dexie keeps a transaction alive when a failed operation's error is
 * caught). A caller hears of success only after the shared transaction committed, so nothing
 * is treated as stored before it is (rule 1). If the commit itself fails, every write of the
 * group fails and its callers leave their entries to be sent again.
 */
import type { LocalDb } from '../database';
import { applyServerIds, type ConfirmedAdd } from './rekey';

interface Pending {
  write: () => Promise<unknown>;
  settle: (result: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
}

export interface GroupCommit {
  /** Any write; it runs in the group's transaction. Settles when the group is flushed. */
  write<T>(write: () => Promise<T>): Promise<T>;
  /** A confirmed entry leaves the outbox (all of a group's in one bulk delete). */
  remove(seq: number): Promise<void>;
  /** A confirmed add takes its server id (all of a group's with bulk operations, rekey.ts). */
  confirmAdd(add: ConfirmedAdd): Promise<void>;
  /** Applies everything asked for so far in one transaction; resolves once every caller is settled. */
  flush(): Promise<void>;
}

export function groupCommit(db: LocalDb): GroupCommit {
  let queued: Pending[] = [];
  let removals: number[] = [];
  let adds: ConfirmedAdd[] = [];
  /** Callers of remove/confirmAdd, settled with the group. */
  let bulkCallers: Pending[] = [];

  async function flush(): Promise<void> {
    const group = queued;
    const bulk = { removals, adds, callers: bulkCallers };
    queued = [];
    removals = [];
    adds = [];
    bulkCallers = [];
    if (group.length === 0 && bulk.callers.length === 0) return;
    const results: Parameters<Pending['settle']>[0][] = [];
    try {
      await db.transaction('rw', db.tables, async () => {
        // The bulk part fails or succeeds as a whole: its callers share one outcome.
        await applyServerIds(db, bulk.adds);
        await db.outbox.bulkDelete(bulk.removals);
        for (const p of group) {
          try {
            results.push({ ok: true, value: await p.write() });
          } catch (error) {
            results.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const p of [...group, ...bulk.callers]) p.settle({ ok: false, error });
      return;
    }
    group.forEach((p, i) => {
      p.settle(results[i]);
    });
    for (const p of bulk.callers) p.settle({ ok: true, value: undefined });
  }

  const enqueue = <T>(into: Pending[], write: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      into.push({ write, settle: (r) => (r.ok ? resolve(r.value as T) : reject(r.error)) });
    });
  const noop = () => Promise.resolve();

  return {
    write: (write) => enqueue(queued, write),
    remove(seq) {
      removals.push(seq);
      return enqueue(bulkCallers, noop);
    },
    confirmAdd(add) {
      adds.push(add);
      return enqueue(bulkCallers, noop);
    },
    flush,
  };
}
