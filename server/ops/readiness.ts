/**
 * Whether this process should get traffic (GET /readyz): not while it shuts down, and not
 * while something it needs does not answer. Each check says why not, or null when fine; the
 * database's is built in, and object storage adds its own (`add`), so the balancer stops
 * sending to a process that cannot reach what its requests need.
 */
import type { Database } from '../db';
import { raceDeadline } from '../kit/race-deadline';

/** Resolves when what it checks answers; throws (or rejects) with the reason when not. */
export type ReadinessCheck = () => Promise<unknown>;

/** A check that takes longer than this counts as failed: the balancer's own timeout is short. */
export const CHECK_TIMEOUT_MS = 2000;

export class Readiness {
  #checks: { name: string; check: ReadinessCheck }[] = [];
  #shuttingDown = false;

  /** `name` leads the reason when the check fails: "database unavailable: …". */
  add(name: string, check: ReadinessCheck): void {
    this.#checks.push({ name, check });
  }

  /** From now on /readyz answers 503 (graceful shutdown, shutdown.ts); nothing else changes. */
  beginShutdown(): void {
    this.#shuttingDown = true;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Null when ready, else the first reason found. */
  async check(): Promise<string | null> {
    if (this.#shuttingDown) return 'shutting down';
    const reasons = await Promise.all(this.#checks.map(({ name, check }) => failureOf(name, check)));
    return reasons.find((r) => r !== null) ?? null;
  }
}

async function failureOf(name: string, check: ReadinessCheck): Promise<string | null> {
  const outcome = check().then(
    () => null,
    (err: unknown) => (err instanceof Error && err.message) || String(err) || 'failed',
  );
  const reason = await raceDeadline(
    outcome,
    CHECK_TIMEOUT_MS,
    () => `no answer within ${CHECK_TIMEOUT_MS} ms`,
  );
  return reason === null ? null : `${name} unavailable: ${reason}`;
}

/** The database answers a query. */
export const databaseCheck =
  (db: Pick<Database, 'query'>): ReadinessCheck =>
  () =>
    db.query('SELECT 1');
