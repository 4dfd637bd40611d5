/**
 * Figures a window keeps watching (the dashboard's charts, issue 20 item 4), kept current in
 * the list worker: counts of a field over an entity's rows, from the engine's indexes in
 * memory, and how many records of each owning table hold each book, from the sets' indexes.
 * Each watch is answered at once and again after every change that may move it (the engine's
 * change events for the counts; the owning tables' writes, Dexie's `storagemutated`, for the
 * holders), one computation a part at a time: a change during one computes once more after
 * it. The window never counts and never asks again; it is told. No DOM.
 */
import Dexie from 'dexie';
import { assignedBookCounts } from '../chart-figures';
import type { LocalDb } from '../database';
import type { ListEngine } from './engine';
import type { CountsAnswer, CountsAsked, FromWorker } from './protocol';
import { measure } from './timing';

type Part = CountsAnswer['part'];

interface Watch {
  asked: CountsAsked;
  running: Set<Part>;
  again: Set<Part>;
}

const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class CountWatches {
  private readonly watches = new Map<number, Watch>();
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly engine: ListEngine,
    private readonly db: LocalDb,
    private readonly post: (message: FromWorker) => void,
  ) {}

  watch(id: number, asked: CountsAsked): void {
    this.watches.set(id, { asked, running: new Set(), again: new Set() });
    this.follow();
    void this.run(id, 'counts', true);
    void this.run(id, 'holders', true);
  }

  unwatch(id: number): void {
    this.watches.delete(id);
  }

  /** The engine brought these entities' indexes up to date (its `onChange`). */
  entitiesChanged(changed: ReadonlySet<string>): void {
    for (const [id, watch] of this.watches)
      if (watch.asked.counts.some((c) => changed.has(c.entity))) void this.run(id, 'counts');
  }

  /**
   * These tables were written (the sets live in the owners' rows, outside the index). The
   * holders are counted again after the engine's update for the same writes (a status toggled
   * shows its counts first: the sets' index counts take seconds at 100,000 students and would
   * hold the engine's read behind them).
   */
  tablesChanged(changed: ReadonlySet<string>): void {
    const ids = [...this.watches]
      .filter(([, watch]) => watch.asked.sets.some((s) => changed.has(s.table)))
      .map(([id]) => id);
    if (ids.length === 0) return;
    void this.engine.settled().then(() => {
      for (const id of ids) void this.run(id, 'holders');
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

  /**
   * Answers a part, again while changes came meanwhile. The first answer reads the heads
   * (`fresh`); later ones follow the engine's change events, which brought the indexes up to date.
   */
  private async run(id: number, part: Part, fresh = false): Promise<void> {
    const watch = this.watches.get(id);
    if (!watch) return;
    if (watch.running.has(part)) {
      watch.again.add(part);
      return;
    }
    watch.running.add(part);
    try {
      do {
        watch.again.delete(part);
        const answer = await this.compute(watch.asked, part, fresh);
        fresh = false;
        if (this.watches.get(id) === watch) this.post({ type: 'counted', id, answer });
      } while (watch.again.has(part) && this.watches.get(id) === watch);
    } catch (error) {
      if (this.watches.get(id) === watch) this.post({ type: 'countsFailed', id, message: failure(error) });
    } finally {
      watch.running.delete(part);
    }
  }

  /** Follows the store's writes (this context's, other tabs', the service worker's) by table. */
  private follow(): void {
    if (this.unfollow) return;
    const prefix = `idb://${this.db.name}/`;
    let moved = new Set<string>();
    const onMutated = (parts: Record<string, unknown>) => {
      const first = moved.size === 0;
      for (const part of Object.keys(parts))
        if (part.startsWith(prefix)) moved.add(part.slice(prefix.length).split('/')[0]);
      if (!first || moved.size === 0) return;
      // One recount for the writes of this turn.
      setTimeout(() => {
        const changed = moved;
        moved = new Set();
        this.tablesChanged(changed);
      }, 0);
    };
    Dexie.on('storagemutated', onMutated);
    this.unfollow = () => Dexie.on('storagemutated').unsubscribe(onMutated);
  }

  close(): void {
    this.unfollow?.();
    this.unfollow = null;
    this.watches.clear();
  }
}
