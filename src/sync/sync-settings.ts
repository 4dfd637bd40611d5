/**
 * Build-time settings shared by the window and the service worker. The API root is the
 * base URL plus the server's path prefix: '/api' for our server on the app's own origin,
 * or e.g. 'https://example.org/admin/fullmarks-server' for an existing PHP deployment.
 */
export const API_ROOT: string = import.meta.env?.VITE_API_ROOT || '/api';

/** Background Sync tag the window registers and the worker answers. */
export const SYNC_TAG = 'outbox-replay';

/**
 * The geography service (src/contract/geography.ts): ours under the API root by default; a
 * legacy deployment sets VITE_GEO_URL to the external service's base (for example
 * https://api.countrystatecity.in/v1) and VITE_GEO_KEY to its key, from the environment at
 * build time, never in the source.
 */
export const GEO_URL: string = import.meta.env?.VITE_GEO_URL || '';
export const GEO_KEY: string = import.meta.env?.VITE_GEO_KEY || '';

/**
 * Set by the service worker when a Background Sync, which can change any list, ran with no
 * window open to hear its writes: the start script then paints no start snapshot, and the app
 * drops the snapshots with the cookie (src/app/start-snapshot.ts). A cookie, because the start
 * script must read it at once and the worker has no localStorage.
 */
export const SNAPSHOTS_STALE_COOKIE = 'startScreenStale';
