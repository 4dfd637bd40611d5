/**
 * The tus locker on the database (table upload_locks, migration 014), so that two server
 * processes never write one resumable upload at once: the chunks of one upload may reach any
 * process behind the balancer, and @tus/server's own locker lives in one process's memory.
 * Plain SQL, so it runs the same on PostgreSQL and on PGlite's single process.
 *
 * A lock is a lease: its holder renews it while it writes (every `renewMs`, for `leaseMs`),
 * so the lock of a process that died expires by itself. A request that finds the upload
 * locked asks the holder to let go, as @tus/server's memory locker does (a client that lost
 * its connection resumes with a new request while the old one may still be receiving): at
 * once when the holder is a request of this process, else through the row, which the holder
 * reads at its next renewal. It then waits, polling, until the lock is free or expired, for
 * at most `acquireTimeoutMs`.
 */
import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Database } from '../db';
import { requestLog } from '../ops/context';

export interface LeaseTimes {
  leaseMs: number;
  renewMs: number;
  /** The first wait between two tries; it doubles up to a second. */
  pollMs: number;
  acquireTimeoutMs: number;
}

/** A chunk's writer renews every 2 s; a dead one's lock is free 20 s after its last renewal. */
export const DEFAULT_LEASE: LeaseTimes = {
  leaseMs: 20_000,
  renewMs: 2_000,
  pollMs: 50,
  acquireTimeoutMs: 30_000,
};

const MAX_POLL_MS = 1_000;

export class DatabaseLocker implements Locker {
  /** Locks held by this process's requests, to ask them to let go without a round trip. */
  readonly held = new Map<string, { holder: string; requestRelease: RequestRelease }>();

  constructor(
    readonly db: Pick<Database, 'query'>,
    readonly times: LeaseTimes = DEFAULT_LEASE,
  ) {}

  newLock(id: string): Lock {
    return new DatabaseLock(this, id);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

class DatabaseLock implements Lock {
  private readonly holder = `${process.pid}-${randomUUID()}`;
  private renewal?: NodeJS.Timeout;

  constructor(
    private readonly locker: DatabaseLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { db, times } = this.locker;
    const deadline = Date.now() + times.acquireTimeoutMs;
    let asked = false;
    for (let wait = times.pollMs; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (await this.take()) {
        this.locker.held.set(this.id, { holder: this.holder, requestRelease });
        this.startRenewing(requestRelease);
        return;
      }
      if (!asked) {
        asked = true;
        await this.locker.held.get(this.id)?.requestRelease();
        await db.query('UPDATE upload_locks SET release_requested = true WHERE id = $1', [this.id]);
      }
      if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(wait, signal);
    }
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    if (this.locker.held.get(this.id)?.holder === this.holder) this.locker.held.delete(this.id);
    await this.locker.db.query('DELETE FROM upload_locks WHERE id = $1 AND holder = $2', [
      this.id,
      this.holder,
    ]);
  }

  /** The lock if it is free or its lease ran out. */
  private async take(): Promise<boolean> {
    const rows = await this.locker.db.query(
      `INSERT INTO upload_locks (id, holder, expires_at)
       VALUES ($1, $2, now() + $3::int * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE
         SET holder = excluded.holder, expires_at = excluded.expires_at, release_requested = false
         WHERE upload_locks.expires_at < now()
       RETURNING holder`,
      [this.id, this.holder, this.locker.times.leaseMs],
    );
    return rows.length === 1;
  }

  private startRenewing(requestRelease: RequestRelease): void {
    let released = false;
    const letGo = () => {
      if (released) return;
      released = true;
      void requestRelease();
    };
    this.renewal = setInterval(async () => {
      try {
        const [row] = await this.locker.db.query<{ release_requested: boolean }>(
          `UPDATE upload_locks SET expires_at = now() + $3::int * interval '1 millisecond'
           WHERE id = $1 AND holder = $2 RETURNING release_requested`,
          [this.id, this.holder, this.locker.times.leaseMs],
        );
        // Asked to let go by a request elsewhere, or the lease was lost (taken over after it
        // ran out): either way this request stops writing.
        if (!row || row.release_requested) letGo();
      } catch (err) {
        requestLog().error({ err }, `Could not renew the lock of upload ${this.id}`);
      }
    }, this.locker.times.renewMs);
    this.renewal.unref();
  }
}
