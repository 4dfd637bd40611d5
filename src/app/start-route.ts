/**
 * Which starts open on an entity's screen (a list reopened offline, a bookmark): signed in, on
 * a path that is not sign-in, the dashboard, the outbox or the audit trail. Shared by the app
 * (first-screen.ts, session.ts) and the start script the build writes into index.html
 * (scripts/start-preload-plugin.ts), which cannot import the app's modules.
 */

/** The local storage key of spec §2's isAuthenticated flag ('true' when signed in). */
export const SIGNED_IN_FLAG = 'isAuthenticated';

/** Paths whose screens are not an entity's (the router's chunk for them loads at once). */
export const NOT_ENTITY_PATH = /^\/(login|homepage|outbox|audit)?$/;

/**
 * The start snapshots (start-snapshot.ts): the last few list screens shown, each under this
 * prefix and its address (path and search), the addresses newest first under the prefix alone.
 */
export const START_SNAPSHOT_PREFIX = 'startScreen:';

/** The element the start script paints a snapshot into, over the app until its screen shows. */
export const START_SNAPSHOT_ID = 'start-snapshot';

/** However the start goes, its snapshot is taken down after this long. */
export const START_SNAPSHOT_MAX_MS = 4000;
