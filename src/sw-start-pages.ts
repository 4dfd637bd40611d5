/// <reference lib="webworker" />
/**
 * Starts the browser answers without this worker: a navigation to one of the app's fixed
 * addresses (a list, the dashboard, sign-in) is served the app shell from a cache by the
 * Service Worker Static Routing API, so a cold start does not wait for this worker's script
 * to load and run before its page can begin. The shell is kept under each such address in a
 * cache named by its revision, filled at install (the worker's rules are fixed then) and the
 * older ones dropped at activation. Any other navigation (an address with a query or an id)
 * goes to the fetch handler as before, and so does everything where the API is missing.
 */
import { entities } from './contract/entities';

/** The install event with the Service Worker Static Routing API (Chromium 123+). */
export interface RoutingInstallEvent extends ExtendableEvent {
  addRoutes?(rules: RouterRule[]): Promise<void>;
}

interface RouterRule {
  condition: { urlPattern: string | object; requestMode?: 'navigate' };
  source: 'cache' | { cacheName: string };
}

const PREFIX = 'start-pages-';

/** The app's addresses that take no id and no query: where a start most often lands. */
export function fixedAddresses(): string[] {
  const paths = new Set(['/', '/login', '/homepage', '/outbox', '/audit']);
  for (const { routes } of entities)
    for (const path of [routes.list, routes.add]) if (path && !path.includes(':')) paths.add(path);
  return [...paths];
}

type Pattern = new (init: object) => object;

/** The navigations to the fixed addresses, each with no query, answered from `cacheName`. */
function rules(Pattern: Pattern, cacheName: string, paths: readonly string[]): RouterRule[] {
  return paths.map((pathname) => ({
    condition: { urlPattern: new Pattern({ pathname, search: '' }), requestMode: 'navigate' },
    source: { cacheName },
  }));
}

/**
 * Keeps the shell (`shellUrl` at `revision`) under every fixed address, then hands those
 * navigations to the browser. Without the API nothing is kept; a failure leaves the fetch
 * handler answering as before.
 */
export async function routeStartPages(event: RoutingInstallEvent, shellUrl: string, revision: string) {
  // Rules name their addresses by URLPattern: without it, nothing is kept.
  const Pattern = (globalThis as { URLPattern?: Pattern }).URLPattern;
  if (!event.addRoutes || !Pattern) return;
  const cacheName = PREFIX + revision;
  const paths = fixedAddresses();
  const shell = await fetch(shellUrl, { cache: 'reload' });
  if (!shell.ok) throw new Error(`The app shell answered ${shell.status}`);
  // A fresh response (not marked redirected: a navigation refuses that), with its headers.
  const body = await shell.arrayBuffer();
  const cache = await caches.open(cacheName);
  await Promise.all(
    paths.map((path) => cache.put(path, new Response(body, { status: 200, headers: shell.headers }))),
  );
  await event.addRoutes(rules(Pattern, cacheName, paths));
}

/** Drops the shells kept by earlier versions of the worker (at activation: none of them answers now). */
export async function dropOldStartPages(revision: string): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names.filter((n) => n.startsWith(PREFIX) && n !== PREFIX + revision).map((n) => caches.delete(n)),
  );
}
