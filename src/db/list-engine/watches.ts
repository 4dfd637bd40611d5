/**
 * The lists a window watches (protocol.ts), as the list worker keeps them: each watch is
 * answered with its newest query only. A query superseded before its turn is never run; one
 * superseded while it ran is not posted; a change of the rows while a query ran makes the
 * watch answer again. How a page is computed and where answers go are given (the worker: the
 * engine and postMessage), so the rules are tested without a worker.
 */

import { errorMessage } from '../error-message';
import type { PageQuery } from './entity-index';
import type { FromWorker, ShownPage } from './protocol';

interface Watch {
  entity: string;
  query: PageQuery;
  seq: number;
  /** The seq last answered. */
  answered: number;
  /** The rows changed since the last answer. */
  changed: boolean;
  running: boolean;
}

export class PageWatches {
  private readonly watches = new Map<number, Watch>();
  /** Answers being worked out, and when the last one ended. */
  private answering = 0;
  private lastAnswer = 0;

  constructor(
    private readonly pageOf: (entity: string, query: PageQuery) => Promise<ShownPage>,
    private readonly post: (message: FromWorker) => void,
    /** Hears each entity a page was posted for (the worker then computes its orders ahead). */
    private readonly answered: (entity: string) => void = () => {},
  ) {}

  /** How long ago the last answer ended (ms). */
  sinceAnswer(): number {
    return performance.now() - this.lastAnswer;
  }

  /** Whether no answer is being worked out and none ended in the last `ms`. */
  quietFor(ms: number): boolean {
    return this.answering === 0 && this.sinceAnswer() >= ms;
  }

  /** A list's newest query (a higher seq than any before it under this id). */
  watch(id: number, seq: number, entity: string, query: PageQuery): void {
    const watch = this.watches.get(id);
    if (watch && watch.entity === entity) Object.assign(watch, { seq, query });
    else this.watches.set(id, { entity, query, seq, answered: 0, changed: false, running: false });
    void this.answer(id);
  }

  unwatch(id: number): void {
    this.watches.delete(id);
  }

  /** The rows shown changed (or may have): every watch of these entities (null: all) answers again. */
  refresh(changed: ReadonlySet<string> | null): void {
    for (const [id, watch] of this.watches) {
      if (changed && !changed.has(watch.entity)) continue;
      watch.changed = true;
      void this.answer(id);
    }
  }

  /** Answers a watch's newest query, again while newer ones or changes came meanwhile. */
  private async answer(id: number): Promise<void> {
    const watch = this.watches.get(id);
    if (!watch || watch.running) return;
    watch.running = true;
    this.answering += 1;
    const current = (seq: number) => watch.seq === seq && this.watches.get(id) === watch;
    while (this.watches.get(id) === watch && (watch.answered !== watch.seq || watch.changed)) {
      const { seq, entity, query } = watch;
      watch.changed = false;
      try {
        const page = await this.pageOf(entity, query);
        if (current(seq)) {
          this.post({ type: 'page', id, seq, page });
          this.answered(entity);
        }
      } catch (error) {
        if (current(seq)) this.post({ type: 'failed', id, seq, message: errorMessage(error) });
      }
      watch.answered = seq;
    }
    watch.running = false;
    this.answering -= 1;
    this.lastAnswer = performance.now();
  }
}
