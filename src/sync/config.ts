/**
 * Build-time settings shared by the window and the service worker. The API root is the
 * base URL plus the server's path prefix: '/api' for our server on the app's own origin,
 * or e.g. 'https://example.org/admin/fullmarks-server' for an existing PHP deployment.
 */
export const API_ROOT: string = import.meta.env?.VITE_API_ROOT || '/api';

/** Background Sync tag the window registers and the worker answers. */
export const SYNC_TAG = 'outbox-replay';
