/**
 * One log line and the metrics of every request, written when its reply has gone out (or the
 * connection closed before), so that the duration and the bytes are those of the whole reply.
 *
 * The line: reqId, method, path, route (Hono's pattern), status, durationMs, bytes (of the
 * reply's body), adminId when signed in, and pino's time, level and pid. Never a header's or
 * a body's content: a query string keeps its values only where they cannot hold personal data
 * (numbers, and the fixed `type` and `sortOption`); a `search` is logged as `search=~`.
 *
 * reqId: the X-Request-Id a proxy that TRUST_PROXY names sent (haproxy's unique id), else a
 * new UUID; echoed in the reply's X-Request-Id, so a client's report can be found in the log.
 * Health checks and scrapes are logged at debug (a balancer polls every few seconds).
 *
 * The request's logger and the metrics are put in the request scope (context.ts) for code
 * below that has no parameter for them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { authEndpoints } from '../../src/contract/endpoints';
import { RESUMABLE_PATH } from '../../src/contract/resumable';
import { fromTrustedProxy, type TrustProxy } from '../http/client';
import type { AppEnv } from '../http/env';
import { requestScope } from './context';
import type { Logger } from './log';
import type { AppMetrics } from './metrics';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a proxy may send as a request id: printable ASCII without spaces, of a sane length. */
const isRequestId = (id: string) => /^[\x21-\x7e]{1,128}$/.test(id);

/** Query parameters whose values are logged as they are; any other value becomes `~`. */
const PLAIN_PARAMS = new Set(['type', 'sortOption']);

/** The path with its query, values that could name a person left out. */
export function loggedPath(url: string): string {
  const u = new URL(url);
  if (!u.search) return u.pathname;
  const parts = [...u.searchParams].map(([k, v]) =>
    PLAIN_PARAMS.has(k) || /^\d{1,20}$/.test(v) ? `${k}=${v}` : `${k}=~`,
  );
  return `${u.pathname}?${parts.join('&')}`;
}

/** Counts the body bytes written to a Node reply. */
function countWrites(outgoing: ServerResponse): () => number {
  let bytes = 0;
  const size = (chunk: unknown, encoding?: unknown) =>
    typeof chunk === 'string'
      ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : chunk instanceof Uint8Array
        ? chunk.byteLength
        : 0;
  const { write, end } = outgoing;
  outgoing.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    bytes += size(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  outgoing.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') bytes += size(chunk, rest[0]);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  return () => bytes;
}

export interface ObserveOptions {
  log: Logger;
  metrics: AppMetrics;
  trustProxy: TrustProxy;
  apiPrefix: string;
  /** Paths logged at debug: the health checks and the metrics. */
  quietPaths: readonly string[];
}

export function observeRequests(options: ObserveOptions): MiddlewareHandler<AppEnv> {
  const { log, metrics } = options;
  const loginPath = `${options.apiPrefix}/${authEndpoints.login.path}`;
  const resumablePath = `${options.apiPrefix}/${RESUMABLE_PATH}`;
  const quiet = new Set(options.quietPaths);

  return async (c, next) => {
    const started = performance.now();
    const given = fromTrustedProxy(c, options.trustProxy) ? c.req.header(REQUEST_ID_HEADER) : undefined;
    const reqId = given !== undefined && isRequestId(given) ? given : randomUUID();
    const reqLog = log.child({ reqId });
    const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const bytesSent = env?.outgoing ? countWrites(env.outgoing) : undefined;
    metrics.inFlight.inc();

    await requestScope.run({ log: reqLog, metrics }, next);
    c.res.headers.set(REQUEST_ID_HEADER, reqId);

    const finish = () => {
      metrics.inFlight.dec();
      const status = c.res.status;
      const route = routePath(c) || 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      const labels = { route, method: c.req.method, status: String(status) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, seconds);
      if (c.req.path === loginPath && c.req.method === 'POST' && status !== 200)
        metrics.refusedSignIns.inc({
          reason: status === 401 ? 'credentials' : status === 429 ? 'throttled' : 'malformed',
        });
      countUpload(c, env?.incoming, resumablePath, metrics);
      const aborted = env?.outgoing ? !env.outgoing.writableFinished : false;
      const line = {
        method: c.req.method,
        path: loggedPath(c.req.url),
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        bytes: bytesSent ? bytesSent() : Number(c.res.headers.get('content-length') ?? 0),
        ...(c.var.adminId !== undefined ? { adminId: c.var.adminId } : {}),
        ...(aborted ? { aborted: true } : {}),
      };
      const level = quiet.has(c.req.path) ? 'debug' : status >= 500 ? 'error' : 'info';
      reqLog[level](line, aborted ? 'request cut before its reply ended' : 'request');
    };
    // The adapter writes the reply after the middleware returns: log when it is done.
    if (env?.outgoing && !env.outgoing.writableFinished) env.outgoing.once('close', finish);
    else finish();
  };
}

/** Bytes of files received, counted once the request's body was read whole. */
function countUpload(
  c: Context<AppEnv>,
  incoming: IncomingMessage | undefined,
  resumablePath: string,
  metrics: AppMetrics,
) {
  if (!incoming?.complete) return;
  const length = Number(c.req.header('content-length') ?? Number.NaN);
  if (!Number.isSafeInteger(length) || length <= 0) return;
  if (c.req.method === 'PATCH' && c.req.path.startsWith(`${resumablePath}/`))
    metrics.uploadBytes.inc({ kind: 'resumable' }, length);
  else if (/^multipart\/form-data/i.test(c.req.header('content-type') ?? ''))
    metrics.uploadBytes.inc({ kind: 'multipart' }, length);
}
