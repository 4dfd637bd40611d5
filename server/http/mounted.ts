/**
 * The routes an app answers under the API prefix, read back from the app itself (Hono's own
 * list of what was registered), not from the tables they were built from: the list tests
 * derive their checks from (every mounted route refuses a request without a session), so a
 * route added by any means is covered. Middleware (`app.use`, method ALL) is not a route.
 */
import type { Hono } from 'hono';

export interface MountedRoute {
  method: string;
  /** As registered, parameters and wildcards included: '/api/uploads/:folder/:name'. */
  path: string;
}

// biome-ignore lint/suspicious/noExplicitAny: any app's routes, whatever its environment.
export function mountedRoutes(app: Hono<any>, prefix: string): MountedRoute[] {
  const seen = new Set<string>();
  const out: MountedRoute[] = [];
  for (const { method, path } of app.routes) {
    if (method === 'ALL' || !(path === prefix || path.startsWith(`${prefix}/`))) continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method, path });
  }
  return out;
}
