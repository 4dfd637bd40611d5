/**
 * Figures a window keeps watching (the dashboard's charts), kept current in
 * the list worker: counts of a field over an entity's rows, from the engine's indexes in
 * memory, and how many records of each owning table hold each book, kept in memory from the
 * sets' indexes and the owner rows written (set-holders.ts).
 * Each watch is answered at once and again after every change that may move it (the engine's
 * change events for the counts; the owning tables' writes, Dexie's `storagemutated`, for the
 * holders), posted only when they moved, one computation a part at a time: a change during one
 * computes once more after it. The window never counts and never asks again; it is told. No DOM.
 */
import type { LocalDb } from '../database';
import { errorMessage } from '../error-message';
import { type Follower, follower } from '../follower';
import { addWrittenKeys, followWrites, type WrittenKeys } from '../mutated-tables';
import type { ListEngine } from './engine';
import { measure } from './list-timing';
import type { CountsAnswer, CountsAsked, FromWorker } from './protocol';
import { SetHolders } from './set-holders';

type Part = CountsAnswer['part'];

interface Watch {
  asked: CountsAsked;
  parts: Record<Part, Follower>;
  /** Each set's holders, in the order asked. */
  holders: SetHolders[];
  /** The owner rows written since the holders last followed them (at first: every table, unknown). */
  written: WrittenKeys;
  /** The counts last posted (as JSON). */
  postedCounts?: string;
  /** Aborted when the watch ends: its columns not read yet are not read. */
  stop: AbortController;
}

export class CountWatches {
  private readonly watches = new Map<number, Watch>();
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly engine: ListEngine,
    private readonly db: LocalDb,
    private readonly post: (message: FromWorker) => void,
  ) {}

  watch(id: number, asked: CountsAsked): void {
    // The first answer reads the heads (`fresh`); later ones follow the engine's change
    // events, which brought the indexes up to date.
    const part = (name: Part) => {
      let fresh = true;
      return follower(
        () => {
          const first = fresh;
          fresh = false;
          return this.compute(watch, name, first);
        },
        (answer) => {
          if (answer) this.post({ type: 'counted', id, answer });
        },
        (error) => this.post({ type: 'countsFailed', id, message: errorMessage(error) }),
      );
    };
    const watch: Watch = {
      asked,
      parts: { counts: part('counts'), holders: part('holders') },
      holders: asked.sets.map((s) => new SetHolders(this.db, s.table, s.relation)),
      written: new Map(asked.sets.map((s) => [s.table, null])),
      stop: new AbortController(),
    };
    this.watches.set(id, watch);
    this.follow();
    void watch.parts.counts.run();
    void watch.parts.holders.run();
  }

  unwatch(id: number): void {
    const watch = this.watches.get(id);
    watch?.parts.counts.close();
    watch?.parts.holders.close();
    watch?.stop.abort();
    this.watches.delete(id);
  }

  /** The engine brought these entities' indexes up to date (its `onChange`). */
  entitiesChanged(changed: ReadonlySet<string>): void {
    for (const watch of this.watches.values())
      if (watch.asked.counts.some((c) => changed.has(c.entity))) void watch.parts.counts.run();
  }

  /**
   * These rows were written (the sets live in the owners' rows, outside the index). The
   * holders follow them after the engine's update for the same writes, so a toggled status
   * shows its counts first.
   */
  tablesChanged(changed: ReadonlySet<string>, keys: WrittenKeys): void {
    const moved = [...this.watches.values()].filter((watch) =>
      watch.asked.sets.some((s) => changed.has(s.table)),
    );
    if (moved.length === 0) return;
    for (const watch of moved) {
      const owners = new Set(watch.asked.sets.map((s) => s.table));
      addWrittenKeys(watch.written, new Map([...keys].filter(([table]) => owners.has(table))));
    }
    void this.engine.settled().then(() => {
      for (const watch of moved) void watch.parts.holders.run();
    });
  }

  /** A part's answer; none when it did not move (the window keeps what it has). */
  private async compute(watch: Watch, part: Part, fresh: boolean): Promise<CountsAnswer | null> {
    const started = performance.now();
    if (part === 'holders') {
      const written = watch.written;
      watch.written = new Map();
      let moved: boolean[];
      try {
        moved = await Promise.all(
          watch.holders.map((h) => (written.has(h.table) ? h.written(written.get(h.table) ?? null) : false)),
        );
      } catch (error) {
        // Counted again from the index next time: what was read of these writes is not known.
        addWrittenKeys(watch.written, new Map([...written.keys()].map((table) => [table, null])));
        throw error;
      }
      measure('counts holders', started);
      if (!fresh && !moved.some(Boolean)) return null;
      return { part, holders: holdersByTarget(watch.holders) };
    }
    const asked = watch.asked;
    const counts = await Promise.all(
      asked.counts.map(async (c) =>
        Object.fromEntries(await this.engine.counts(c.entity, {}, c.field, fresh, watch.stop.signal)),
      ),
    );
    measure(fresh ? 'counts first' : 'counts again', started);
    // The outbox's writes (a change queued, sent, delivered) make every list answer again;
    // counts they did not move are not posted again (the window would shape and draw them).
    const posted = JSON.stringify(counts);
    if (posted === watch.postedCounts) return null;
    watch.postedCounts = posted;
    return { part, counts };
  }

  /** Follows the store's writes (this context's, other tabs', the service worker's) by table. */
  private follow(): void {
    this.unfollow ??= followWrites(this.db, (changed, keys) => this.tablesChanged(changed, keys));
  }

  close(): void {
    this.unfollow?.();
    this.unfollow = null;
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}

/** Each target's holders by owner table, as posted: `[target, { [table]: n }]`. */
function holdersByTarget(sets: readonly SetHolders[]): [string, Record<string, number>][] {
  const out = new Map<string, Record<string, number>>();
  for (const set of sets)
    for (const [target, n] of set.counts()) {
      const holders = out.get(target) ?? {};
      holders[set.table] = n;
      out.set(target, holders);
    }
  return [...out];
}
