/**
 * Figures a window keeps watching (the dashboard's charts, issue 20 item 4), kept current in
 * the list worker: counts of a field over an entity's rows, from the engine's indexes in
 * memory, and how many records of each owning table hold each book, from the sets' indexes.
 * Each watch is answered at once and again after every change that may move it (the engine's
 * change events for the counts; the owning tables' writes, Dexie's `storagemutated`, for the
 * holders), one computation a part at a time: a change during one computes once more after
 * it. The window never counts and never asks again; it is told. No DOM.
 */
import { assignedBookCounts } from '../chart-figures';
import type { LocalDb } from '../database';
import { type Follower, follower } from '../follower';
import { followWrites } from '../mutated-tables';
import type { ListEngine } from './engine';
import type { CountsAnswer, CountsAsked, FromWorker } from './protocol';
import { measure } from './timing';
import { failure } from './watches';

type Part = CountsAnswer['part'];

interface Watch {
  asked: CountsAsked;
  parts: Record<Part, Follower>;
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
          return this.compute(asked, name, first);
        },
        (answer) => this.post({ type: 'counted', id, answer }),
        (error) => this.post({ type: 'countsFailed', id, message: failure(error) }),
      );
    };
    const watch: Watch = { asked, parts: { counts: part('counts'), holders: part('holders') } };
    this.watches.set(id, watch);
    this.follow();
    void watch.parts.counts.run();
    void watch.parts.holders.run();
  }

  unwatch(id: number): void {
    const watch = this.watches.get(id);
    watch?.parts.counts.close();
    watch?.parts.holders.close();
    this.watches.delete(id);
  }

  /** The engine brought these entities' indexes up to date (its `onChange`). */
  entitiesChanged(changed: ReadonlySet<string>): void {
    for (const watch of this.watches.values())
      if (watch.asked.counts.some((c) => changed.has(c.entity))) void watch.parts.counts.run();
  }

  /**
   * These tables were written (the sets live in the owners' rows, outside the index). The
   * holders are counted again after the engine's update for the same writes (a status toggled
   * shows its counts first: the sets' index counts take seconds at 100,000 students and would
   * hold the engine's read behind them).
   */
  tablesChanged(changed: ReadonlySet<string>): void {
    const moved = [...this.watches.values()].filter((watch) =>
      watch.asked.sets.some((s) => changed.has(s.table)),
    );
    if (moved.length === 0) return;
    void this.engine.settled().then(() => {
      for (const watch of moved) void watch.parts.holders.run();
    });
  }

  private async compute(asked: CountsAsked, part: Part, fresh: boolean): Promise<CountsAnswer> {
    const started = performance.now();
    if (part === 'holders') {
      const holders = [...(await assignedBookCounts(this.db, asked.sets))];
      measure('counts holders', started);
      return { part, holders };
    }
    const counts = await Promise.all(
      asked.counts.map(async (c) =>
        Object.fromEntries(await this.engine.counts(c.entity, {}, c.field, fresh)),
      ),
    );
    measure(fresh ? 'counts first' : 'counts again', started);
    return { part, counts };
  }

  /** Follows the store's writes (this context's, other tabs', the service worker's) by table. */
  private follow(): void {
    this.unfollow ??= followWrites(this.db, (changed) => this.tablesChanged(changed));
  }

  close(): void {
    this.unfollow?.();
    this.unfollow = null;
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}
