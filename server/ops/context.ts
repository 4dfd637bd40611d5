/**
 * The request being served, for code deep in a request's way that should not have a logger
 * and the metrics threaded through its parameters (the write pipeline, the batch route):
 * `requestLog()` is the request's logger (its lines carry the request's reqId), `opsMetrics()`
 * the server's metrics. Outside a request they fall back to the process's logger (a quiet one
 * until startServer names it) and no metrics.
 *
 * Node's AsyncLocalStorage carries the store through every await of the request
 * (request-log.ts enters it first thing).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Logger, quietLogger } from './log';
import type { AppMetrics } from './metrics';

export interface RequestScope {
  log: Logger;
  metrics: AppMetrics;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

let fallback: Logger | undefined;

/**
 * The process's own logger, for work outside any request (sweeps, lock renewals): started by
 * startServer with the server's logger, so those lines are JSON lines like the rest.
 */
export function setProcessLog(log: Logger): void {
  fallback = log;
}

export function requestLog(): Logger {
  const scope = requestScope.getStore();
  if (scope) return scope.log;
  fallback ??= quietLogger();
  return fallback;
}

export const opsMetrics = (): AppMetrics | undefined => requestScope.getStore()?.metrics;
