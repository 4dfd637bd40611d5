/**
 * What an operator needs from each server process, wired into the app by
 * app/start.ts in two calls: `observe` first of all middleware (request lines and metrics, the
 * request scope, `Connection: close` while shutting down, the slow-body limit), and
 * `registerOpsEndpoints` (/healthz, /readyz, /metrics) after the security headers.
 */
import type { Hono } from 'hono';
import type { Database } from '../db';
import type { TrustProxy } from '../http/client';
import type { AppEnv } from '../http/env';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from './endpoints';
import { type Logger, quietLogger } from './log';
import { type AppMetrics, createMetrics } from './metrics';
import { databaseCheck, Readiness } from './readiness';
import { observeRequests } from './request-log';
import { closeConnectionsWhenDraining } from './shutdown';
import { DEFAULT_TIMEOUTS, limitBodyTime, type RequestTimeouts } from './timeouts';

export { registerOpsEndpoints } from './endpoints';

export interface Ops {
  log: Logger;
  metrics: AppMetrics;
  readiness: Readiness;
  timeouts: RequestTimeouts;
  /** METRICS_TOKEN: /metrics for this bearer token only; unset, for local clients only. */
  metricsToken?: string;
}

export function createOps(
  db: Pick<Database, 'query' | 'pool'>,
  options: { log?: Logger; timeouts?: RequestTimeouts; metricsToken?: string } = {},
): Ops {
  const readiness = new Readiness();
  readiness.add('database', databaseCheck(db));
  return {
    log: options.log ?? quietLogger(),
    metrics: createMetrics(() => db.pool?.() ?? { size: 0, inUse: 0, waiting: 0 }),
    readiness,
    timeouts: options.timeouts ?? DEFAULT_TIMEOUTS,
    metricsToken: options.metricsToken,
  };
}

/** The middleware that sees every request first; register before any other. */
export function observe(
  app: Hono<AppEnv>,
  ops: Ops,
  settings: { apiPrefix: string; trustProxy: TrustProxy },
) {
  app.use(
    '*',
    observeRequests({
      log: ops.log,
      metrics: ops.metrics,
      trustProxy: settings.trustProxy,
      apiPrefix: settings.apiPrefix,
      quietPaths: [HEALTH_PATH, READY_PATH, METRICS_PATH],
    }),
  );
  app.use('*', closeConnectionsWhenDraining(ops.readiness));
  app.use('*', limitBodyTime(ops.timeouts, settings.apiPrefix));
}
