/**
 * How many wrong passwords one account may try from one place before it waits, and the words
 * of the refusal: the server's throttle (server/auth/throttle.ts) and the device's offline
 * sign-in (src/app/offline-sign-in) apply the same rule and say the same thing.
 */

/** Our server's refusal of a wrong username or password; the device's offline sign-in says the same. */
export const WRONG_PASSWORD = 'Invalid username or password';

export interface ThrottleRule {
  /** Attempts allowed before the locks begin. */
  free: number;
  firstLockSeconds: number;
  maxLockSeconds: number;
}

/** Five tries for a mistyping administrator, then 30 s, 1 min, 2 min … at most 15 min between tries. */
export const ONE_ACCOUNT_ONE_PLACE: ThrottleRule = { free: 5, firstLockSeconds: 30, maxLockSeconds: 15 * 60 };

/** The lock after the `beyondFree`-th attempt past the free ones, in seconds: doubling, capped. */
export const lockSeconds = (rule: ThrottleRule, beyondFree: number) =>
  Math.min(rule.maxLockSeconds, rule.firstLockSeconds * 2 ** (beyondFree - 1));

/** How the refusal of an attempt during a lock begins (not a wrong password: nothing was checked). */
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts.';

/** The refusal's text: 'Too many sign-in attempts. Try again in 2 minutes.' */
export function tooManyAttempts(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${TOO_MANY_ATTEMPTS} Try again in ${wait}.`;
}
