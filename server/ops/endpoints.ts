/**
 * The operator's endpoints, outside the API root and without a session:
 *
 * - GET /healthz: 200 {"status":"ok","pid"} while the process runs and serves HTTP; touches nothing (a liveness
 *   check must not fail because the database does: restarting would not help).
 * - GET /readyz: 200 {"status":"ready"} when this process should get traffic, else 503 with
 *   the reason (readiness.ts): the database (or the bucket) does not answer, or the process
 *   is shutting down. The balancer's health check.
 * - GET /metrics: Prometheus' text format (metrics.ts). With METRICS_TOKEN set, only for
 *   `Authorization: Bearer <token>` (401 otherwise); without it, only for clients on this
 *   machine (404 to others, as if there were nothing), a proxied request counting by the
 *   address the proxy forwarded (http/client.ts, isLocalClient).
 *
 * None of them is ever cached.
 */
import type { Context, Hono } from 'hono';
import { isLocalClient, type TrustProxy } from '../http/client';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { sameSecret } from '../kit/same-secret';
import { type AppMetrics, scrape } from './metrics';
import type { Readiness } from './readiness';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export interface OpsEndpointOptions {
  readiness: Readiness;
  metrics: AppMetrics;
  /** METRICS_TOKEN; unset: /metrics for local clients only. */
  metricsToken?: string;
  trustProxy: TrustProxy;
}

function metricsAllowed(c: Context<AppEnv>, options: OpsEndpointOptions): 'yes' | 401 | 404 {
  if (options.metricsToken === undefined) return isLocalClient(c, options.trustProxy) ? 'yes' : 404;
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return bearer !== undefined && sameSecret(bearer, options.metricsToken) ? 'yes' : 401;
}

export function registerOpsEndpoints(app: Hono<AppEnv>, options: OpsEndpointOptions): void {
  app.use(HEALTH_PATH, noStore);
  app.use(READY_PATH, noStore);
  app.use(METRICS_PATH, noStore);

  // The pid tells which process answered (behind a balancer).
  app.get(HEALTH_PATH, (c) => c.json({ status: 'ok', pid: process.pid }));

  app.get(READY_PATH, async (c) => {
    const reason = await options.readiness.check();
    return reason === null ? c.json({ status: 'ready' }) : c.json({ status: reason }, 503);
  });

  app.get(METRICS_PATH, async (c) => {
    const allowed = metricsAllowed(c, options);
    if (allowed === 404) return fail(c, 404, TEXT.notFound);
    if (allowed === 401) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ success: false, message: 'A valid bearer token is required' }, 401);
    }
    const { contentType, text } = await scrape(options.metrics);
    return c.body(text, 200, { 'Content-Type': contentType });
  });
}

async function noStore(c: Context, next: () => Promise<void>) {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
}
