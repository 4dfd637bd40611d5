/**
 * When to sync, for whoever runs the sync engine in a long-lived context (the window; the
 * benchmarks' pages). One run at a time: a request made while one runs is run once after it.
 * After each run: a timer for the earliest retry that is due later, and, while changes wait
 * because the server could not be reached, a probe of the server every second (every ten
 * while the page is hidden) that ends those waits as soon as it answers (recovery.ts). Signs
 * that the network may be back (`online`, the page shown again) end them at once too. Waits
 * the server asked for (Retry-After) are left to run their course.
 *
 * It imports nothing heavy: the sync engine and the context are handed in as loaders, so the
 * window's first load does not carry them.
 */
import { awaitServer, networkWaitsDue } from './recovery';
import type { SyncContext } from './sync-context';
import type { SyncReport } from './sync-now';

export interface SchedulerOptions {
  /** The sync context (loaded on first use). */
  context: () => Promise<SyncContext>;
  /** One sync: send what waits, then pull (sync-now.ts). */
  sync: (ctx: SyncContext) => Promise<SyncReport>;
  /** Whether syncing can help now (signed in, a network). */
  canSync?: () => boolean;
  /** Whether the page is hidden (probes less often). */
  hidden?: () => boolean;
  /** Between probes while changes wait for the server; default 1 s, 10 s hidden. */
  probeEveryMs?: () => number;
  /** A run that threw (a bug, storage refusing): reported, never thrown at the caller. */
  onError?: (error: unknown) => void;
}

/** What the scheduler listens to: a window (or any EventTarget) and its document. */
export interface SyncTriggers {
  win: Pick<EventTarget, 'addEventListener'>;
  doc?: Pick<EventTarget, 'addEventListener'> & { readonly visibilityState?: string };
}

export const PROBE_EVERY_MS = 1000;
export const PROBE_EVERY_MS_HIDDEN = 10_000;

export class SyncScheduler {
  private running: Promise<SyncReport | null> | null = null;
  /** A request came while a run ran: run once more after it. */
  private again = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private probing: AbortController | null = null;
  /** The last report, for callers that look (tests, the benchmark). */
  last: SyncReport | null = null;

  constructor(private readonly options: SchedulerOptions) {}

  private canSync(): boolean {
    return this.options.canSync?.() ?? true;
  }

  /** Sync now if it can help; coalesces calls made while a run is under way. */
  request(): Promise<SyncReport | null> {
    if (!this.canSync()) return Promise.resolve(null);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.options
      .context()
      .then((ctx) => this.options.sync(ctx))
      .then((report) => {
        this.last = report;
        this.afterRun(report);
        return report;
      })
      .catch((error) => {
        this.options.onError?.(error);
        return null;
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.request();
        }
      });
    return this.running;
  }

  /**
   * The network may be back (an `online` event, the page shown again): changes waiting for
   * the server go now rather than at the end of their backoff.
   */
  async retryNow(): Promise<SyncReport | null> {
    if (!this.canSync()) return null;
    await networkWaitsDue((await this.options.context()).db);
    return this.request();
  }

  /** Waits for the run under way (if any), then runs one and reports it. */
  async requestFresh(): Promise<SyncReport | null> {
    while (this.running) await this.running;
    return this.request();
  }

  /** Syncs on `online` and on the page shown again (both end waits for the server), and on focus. */
  listen({ win, doc }: SyncTriggers): void {
    win.addEventListener('online', () => void this.retryNow());
    win.addEventListener('focus', () => void this.request());
    doc?.addEventListener('visibilitychange', () => {
      if (doc.visibilityState !== 'hidden') void this.retryNow();
    });
  }

  stop(): void {
    clearTimeout(this.retryTimer);
    this.probing?.abort();
    this.probing = null;
  }

  private afterRun(report: SyncReport): void {
    const { replay } = report;
    clearTimeout(this.retryTimer);
    // Offline, the `online` event brings the next run; paused, the next sign-in does.
    if (replay.paused || replay.offline) {
      this.stopProbing();
      return;
    }
    if (replay.nextAttemptAt !== null)
      this.retryTimer = setTimeout(
        () => void this.request(),
        Math.max(0, replay.nextAttemptAt - Date.now()) + 50,
      );
    if (replay.unreachable > 0) this.startProbing();
    else this.stopProbing();
  }

  private startProbing(): void {
    if (this.probing) return;
    const probing = new AbortController();
    this.probing = probing;
    const hidden = this.options.hidden ?? (() => false);
    const everyMs = this.options.probeEveryMs ?? (() => (hidden() ? PROBE_EVERY_MS_HIDDEN : PROBE_EVERY_MS));
    void this.options
      .context()
      .then((ctx) => awaitServer(ctx, { everyMs, signal: probing.signal, canProbe: () => this.canSync() }))
      .then((answered) => {
        if (this.probing === probing) this.probing = null;
        if (answered) void this.request();
      })
      .catch((error) => {
        if (this.probing === probing) this.probing = null;
        this.options.onError?.(error);
      });
  }

  private stopProbing(): void {
    this.probing?.abort();
    this.probing = null;
  }
}
