/**
 * Login throttling, with rate-limiter-flexible's PostgreSQL store on our own database (PGlite
 * or PostgreSQL, through `query`): its state is in the table login_throttle, so a lock holds
 * across restarts and across several server processes, and every step is one atomic upsert.
 *
 * Each attempt is counted under several subjects, each with its own rule (ThrottlePolicy):
 * - one account from one address (or, for a known device, from that device);
 * - the account from anywhere (not for a known device);
 * - the address, whatever account it tries (not for a known device).
 * A subject allows `free` attempts; past them, one attempt per lock period, the period
 * doubling with each further attempt (firstLockSeconds, 2x, 4x ... up to maxLockSeconds).
 * A success forgets the account's counts (not the address's: one account of its own must not
 * let an address clear its record); counts are forgotten anyway `forgetSeconds` after the
 * first failure of a series.
 *
 * Attempts are counted BEFORE the password is checked, so that attempts sent in parallel are
 * all counted and only one per lock period gets through; a success then takes its count back.
 * During a lock even the right password is refused: otherwise the lock would still answer
 * whether a guess was right.
 */
import { createHash } from 'node:crypto';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import {
  lockSeconds,
  ONE_ACCOUNT_ONE_PLACE,
  type ThrottleRule,
} from '../../src/contract/accounts/sign-in-limits';
import type { Query } from '../db';

export { lockSeconds, type ThrottleRule, tooManyAttempts } from '../../src/contract/accounts/sign-in-limits';

export interface ThrottlePolicy {
  /** One account from one address, or from one known device. */
  accountFromAddress: ThrottleRule;
  /** One account from every address (devices that signed in to it before excepted). */
  account: ThrottleRule;
  /** One address, every account (known devices excepted). */
  address: ThrottleRule;
  /** Counts are forgotten this long after the first failure of a series. */
  forgetSeconds: number;
}

/**
 * An administrator mistyping on a touch keyboard gets five tries, then waits 30 s, 1 min, 2
 * min ... at most 15 min between tries. An attack on one account from many addresses locks
 * newcomers out of that account for at most 15 min at a time, and never the devices that
 * signed in to it before. One address may fail 100 times a day across accounts (a school's
 * shared connection) before its locks begin.
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  accountFromAddress: ONE_ACCOUNT_ONE_PLACE,
  account: { free: 20, firstLockSeconds: 60, maxLockSeconds: 15 * 60 },
  address: { free: 100, firstLockSeconds: 60, maxLockSeconds: 60 * 60 },
  forgetSeconds: 24 * 60 * 60,
};

export interface Subject {
  key: string;
  rule: ThrottleRule;
  /** Whether a successful sign-in forgets this subject's failures. */
  forgetOnSuccess: boolean;
}

/** Keys hold hashes: no usernames or addresses in the table, and a bounded length. */
const h = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

export function subjectsOf(
  policy: ThrottlePolicy,
  attempt: { username: string; address: string; knownDevice?: string },
): Subject[] {
  const user = h(attempt.username);
  if (attempt.knownDevice)
    return [
      {
        key: `device:${h(attempt.knownDevice)}:${user}`,
        rule: policy.accountFromAddress,
        forgetOnSuccess: true,
      },
    ];
  const address = h(attempt.address);
  return [
    { key: `pair:${user}:${address}`, rule: policy.accountFromAddress, forgetOnSuccess: true },
    { key: `account:${user}`, rule: policy.account, forgetOnSuccess: true },
    { key: `address:${address}`, rule: policy.address, forgetOnSuccess: false },
  ];
}

export type Admission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LoginThrottle {
  /** Counts the attempt; refuses it while a subject is locked. */
  admit(subjects: readonly Subject[]): Promise<Admission>;
  /** The password was right: take the attempt back, forget the account's failures. */
  succeeded(subjects: readonly Subject[]): Promise<void>;
}

const TABLE = 'login_throttle';

export function loginThrottle(query: Query, policy: ThrottlePolicy = DEFAULT_THROTTLE): LoginThrottle {
  // The library's PostgreSQL store talks to a node-pg pool; this is the part of one it uses.
  const storeClient = {
    async query({ text, values }: { text: string; values?: unknown[] }) {
      const rows = await query(text, values);
      return { rows, rowCount: rows.length };
    },
  };
  const common = { storeClient, storeType: 'pool', tableName: TABLE, tableCreated: true } as const;
  // Expired rows are swept at sign-in (sweep below), not by a timer per limiter.
  const attempts = new RateLimiterPostgres({
    ...common,
    clearExpiredByTimeout: false,
    keyPrefix: 'attempts',
    points: Number.MAX_SAFE_INTEGER,
    duration: policy.forgetSeconds,
  });
  const locks = new RateLimiterPostgres({
    ...common,
    clearExpiredByTimeout: false,
    keyPrefix: 'lock',
    points: 1,
    duration: 60,
  });
  const refuse = (ms: number): Admission => ({
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
  });

  return {
    async admit(subjects) {
      // Locked already: refused without counting, so waiting it out is all it takes.
      const held = await Promise.all(subjects.map((s) => locks.get(s.key)));
      const waitMs = Math.max(0, ...held.map((r) => (r && r.consumedPoints >= 1 ? r.msBeforeNext : 0)));
      if (waitMs > 0) return refuse(waitMs);

      const counts = await Promise.all(subjects.map((s) => attempts.penalty(s.key, 1)));
      for (const [i, s] of subjects.entries()) {
        const beyond = counts[i].consumedPoints - s.rule.free;
        if (beyond <= 0) continue;
        try {
          // The period's one attempt; a parallel attempt that finds it taken is refused.
          await locks.consume(s.key, 1, { customDuration: lockSeconds(s.rule, beyond) });
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          await Promise.all(subjects.map((t) => attempts.reward(t.key, 1)));
          return refuse(err.msBeforeNext);
        }
      }
      return { allowed: true };
    },

    async succeeded(subjects) {
      await Promise.all(
        subjects.map(async (s) => {
          if (!s.forgetOnSuccess) return void (await attempts.reward(s.key, 1));
          await attempts.delete(s.key);
          await locks.delete(s.key);
        }),
      );
      await query(`DELETE FROM ${TABLE} WHERE expire < $1`, [Date.now()]);
    },
  };
}
