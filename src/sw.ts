/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell, answers every navigation with it (so each
 * route cold-starts offline), takes over when the page asks, and replays the outbox on
 * Background Sync with the same code the window uses; when the server could not be reached,
 * it probes it every second for a minute and sends as soon as it answers (recovery.ts).
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { openLocalDb } from './db/open';
import { dropOldStartPages, type RoutingInstallEvent, routeStartPages } from './sw-start-pages';
import { createApi } from './sync/api/api-client';
import { PROBE_EVERY_MS } from './sync/scheduler';
import type { SyncContext } from './sync/sync-context';
import { syncWhenOnline } from './sync/sync-now';
import { API_ROOT, SNAPSHOTS_STALE_COOKIE, SYNC_TAG } from './sync/sync-settings';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

// Control open pages as soon as this worker activates: the first visit is then offline-ready
// without a reload, and a page that accepted an update reloads into the new version.
clientsClaim();
cleanupOutdatedCaches();
const manifest = self.__WB_MANIFEST;
precacheAndRoute(manifest);

/** The app shell's revision: it names the cache of the start pages (sw-start-pages.ts). */
const shellRevision =
  manifest.flatMap((e) => (typeof e !== 'string' && e.url === 'index.html' ? [e.revision] : []))[0] ?? 'none';

// The build's hashed files (scripts, styles) are answered by the browser straight from the
// precache, without a fetch event: on a cold start each of the two dozen chunks otherwise waited
// for this worker to start and for its turn on the worker's one thread (~6 ms a request). A
// file the precache lacks (an old page's chunk after an update) goes to the network, as the
// precache route would. Browsers without the API call the fetch handler as before.
self.addEventListener('install', (event) => {
  const install = event as RoutingInstallEvent;
  if (install.addRoutes)
    install.waitUntil(
      install
        .addRoutes([{ condition: { urlPattern: '/assets/*' }, source: 'cache' }])
        .catch((error) => console.warn('Static routes not added', error)),
    );
  install.waitUntil(
    routeStartPages(install, '/index.html', shellRevision).catch((error) =>
      console.warn('Start pages not routed', error),
    ),
  );
});
self.addEventListener('activate', (event) => {
  event.waitUntil(dropOldStartPages(shellRevision));
});
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//] }));
// Uploaded files never change under a name (the server names each upload anew), so a copy
// seen once serves the covers and chapter images offline.
registerRoute(
  ({ url }) => url.pathname.includes('/uploads/'),
  new CacheFirst({
    cacheName: 'uploads',
    plugins: [new ExpirationPlugin({ maxEntries: 2000, purgeOnQuotaError: true })],
  }),
);

self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/**
 * The store and the API client, made when a sync first needs them: a start answers its
 * navigation without them (a cold start waits for this worker's script to run).
 */
let made: SyncContext | undefined;
const syncContext = () => {
  made ??= { db: openLocalDb(), api: createApi({ root: API_ROOT }), online: () => self.navigator.onLine };
  return made;
};

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

/**
 * How long a sync event keeps probing a server it could not reach (the browser ends a sync
 * event after a few minutes; a window, if open, keeps probing on its own).
 */
const PROBE_FOR_MS = 60_000;

/** The Cookie Store API where the worker has it (Chromium, like Background Sync). */
interface CookieStore {
  set(cookie: {
    name: string;
    value: string;
    path: string;
    expires: number;
    sameSite: 'strict';
  }): Promise<void>;
}

const YEAR_MS = 365 * 24 * 3600_000;

/**
 * With no window open, no one heard this sync's writes: the start snapshots of the lists may
 * show rows as they were, so the next start must not paint them.
 */
async function distrustStartSnapshots(): Promise<void> {
  const cookies = (self as unknown as { cookieStore?: CookieStore }).cookieStore;
  if (!cookies || (await self.clients.matchAll({ type: 'window' })).length > 0) return;
  const expires = Date.now() + YEAR_MS;
  await cookies.set({ name: SNAPSHOTS_STALE_COOKIE, value: '1', path: '/', expires, sameSite: 'strict' });
}

self.addEventListener('sync', (event) => {
  const e = event as SyncEvent;
  if (e.tag !== SYNC_TAG) return;
  e.waitUntil(
    syncWhenOnline(syncContext(), {
      probeEveryMs: PROBE_EVERY_MS,
      probeForMs: PROBE_FOR_MS,
    }).then(async (report) => {
      // Rejecting asks the browser to fire the event again later with its own backoff.
      if (!report) throw new Error('Offline: changes still waiting');
      await distrustStartSnapshots().catch((error) => console.warn('Start snapshots not marked', error));
      if (report.replay.waiting > 0 && !report.replay.paused) throw new Error('Changes still waiting');
    }),
  );
});
