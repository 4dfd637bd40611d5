/**
 * Rule 4: what a reply means for the entry that caused it. Network errors, timeouts and
 * 5xx are retried; success false or a 4xx is permanent until the administrator acts; 401
 * pauses the whole queue until they sign in again.
 *
 * A retry says whether the server was reached (`unreachable`): no reply at all, or a gateway
 * in front of it (502, 503, 504) saying it is down, without a Retry-After. Such a wait ends
 * as soon as the server answers again (recovery.ts); one the server asked for, or one after
 * the server's own error, runs its course.
 */
import type { ApiOutcome } from './api/api-client';

export type Verdict =
  | { kind: 'done'; body: Record<string, unknown>; replayed: boolean }
  | { kind: 'retry'; reason: string; afterMs?: number; unreachable?: boolean }
  | { kind: 'auth' }
  | {
      kind: 'failed';
      message: string | null;
      status: number;
      /** The record is no longer on the server (found so when the edit was merged). */
      gone?: boolean;
    };

/** What a gateway answers when the server behind it is down or not answering. */
const GATEWAY_DOWN = [502, 503, 504];

export function classify(outcome: ApiOutcome, op: string): Verdict {
  if (outcome.kind === 'unreachable') return { kind: 'retry', reason: outcome.error, unreachable: true };
  if (outcome.status >= 500 || outcome.status === 408 || outcome.status === 429) {
    const afterMs = outcome.retryAfterMs;
    const unreachable = afterMs === undefined && GATEWAY_DOWN.includes(outcome.status);
    return { kind: 'retry', reason: `The server answered ${outcome.status}`, afterMs, unreachable };
  }

  if (outcome.status === 401) return { kind: 'auth' };
  if (outcome.kind === 'not-json') {
    return { kind: 'failed', message: 'The server sent a reply that is not JSON', status: outcome.status };
  }
  const { body } = outcome;
  // Deleting a record the server no longer has leaves the server as the administrator wanted.
  if (op === 'delete' && outcome.status === 404) return { kind: 'done', body, replayed: outcome.replayed };
  if (body.success && outcome.status < 400) return { kind: 'done', body, replayed: outcome.replayed };
  const message =
    typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : null;
  return { kind: 'failed', message, status: outcome.status };
}

/** Exponential backoff with jitter: about 1 s, 2 s, 4 s ... at most a minute. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.5 + random()));
}
