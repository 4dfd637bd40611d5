/**
 * What every API request must pass before anything reads its body:
 * - `guardQuery`: a query string of sane length without NUL characters (a JSON 414 or 400,
 *   where Node itself would answer a 431 page for an over-long request line);
 * - `sameOrigin`: a state-changing request must come from the app's own origin or one the
 *   ALLOWED_ORIGINS setting names (CSRF). Browsers send `Origin` on every cross-origin POST and
 *   `Sec-Fetch-Site` on every request; a request with neither comes from no browser page (curl,
 *   a server), and so cannot be a forged cross-site one.
 */
import type { MiddlewareHandler } from 'hono';
import { clientInfo, type TrustProxy } from './client';
import type { AppEnv } from './env';
import { fail, TEXT } from './reply';

/** Longest query string accepted (the legacy lists send a few short parameters). */
export const MAX_QUERY_BYTES = 4096;

export const guardQuery: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = c.req.url;
  const at = url.indexOf('?');
  if (at >= 0 && url.length - at - 1 > MAX_QUERY_BYTES) return fail(c, 414, TEXT.queryTooLong);
  let values: string[];
  try {
    values = Object.entries(c.req.queries() ?? {}).flatMap(([k, v]) => [k, ...v]);
  } catch {
    return fail(c, 400, TEXT.malformedQuery);
  }
  if (values.some((v) => v.includes('\u0000'))) return fail(c, 400, TEXT.nul);
  await next();
};

export interface OriginOptions {
  trustProxy: TrustProxy;
  /** Other origins allowed to send writes (ALLOWED_ORIGINS), e.g. an app built for another host. */
  allowed: readonly string[];
}

export function sameOrigin(options: OriginOptions): MiddlewareHandler<AppEnv> {
  const allowed = new Set(options.allowed.map((o) => o.replace(/\/+$/, '')));
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const host = c.req.header('host');
      const scheme = clientInfo(c, options.trustProxy).https ? 'https' : 'http';
      const own = host ? `${scheme}://${host}` : new URL(c.req.url).origin;
      if (origin !== own && !allowed.has(origin)) return fail(c, 403, TEXT.crossSite);
      return next();
    }
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return fail(c, 403, TEXT.crossSite);
    return next();
  };
}
