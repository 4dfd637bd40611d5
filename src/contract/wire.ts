/**
 * What travels between client and server beyond the entity endpoints: the reply envelope,
 * the auth endpoints and the names of our extensions (design brief §4). A server without
 * the extensions simply never sends these fields; the client detects that from the replies.
 */

/** Every reply is a JSON object with a success flag (api-contract §1). */
export interface Envelope {
  success: boolean;
  message?: string;
  error?: string;
  [field: string]: unknown;
}

export const AUTH_PATHS = {
  /** Legacy: JSON {username, password}; reply {success, message}. Ours also sets the session cookie. */
  login: 'Admin_access/login.php',
  /** Ours: ends the session. */
  logout: 'Admin_access/logout.php',
} as const;

/**
 * Ours: the live stream (Server-Sent Events) that tells a signed-in device when something was
 * committed, by the change sequence it reached (`id` and `data` of each event), so that it
 * pulls at once instead of at its next poll. It carries no data; a device sends the last id
 * back as `Last-Event-ID` when it reconnects and hears at once of what it missed.
 */
export const LIVE_EVENTS_PATH = 'sync/events';

/** Between the stream's keep-alive comments: a stream silent for a few of these is dead. */
export const LIVE_KEEP_ALIVE_MS = 25_000;

/** Request header carrying the outbox entry's client-made id (outbox rule 2). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Reply header our server sets when it answered a repeat from its stored replies. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Delta pull: a list call with `since=<cursor>` returns only rows changed after the cursor,
 * plus `deleted` (ids removed since) and a new `cursor`. `since=0` asks for everything and
 * a cursor. A server without the extension ignores the parameter and sends no cursor.
 */
export const DELTA_PARAM = 'since';
export const DELTA_CURSOR_FIELD = 'cursor';
export const DELTA_DELETED_FIELD = 'deleted';

/**
 * A delta comes in pages: at most `sinceLimit` changes (rows and deletions together,
 * in the order of their revs) per reply, DELTA_MAX_PAGE at most and by default. `cursor` is
 * then the page's end: the next page is `since=<cursor>`. `more` says whether changes remain
 * after it; with `sinceCount=1` the reply also says how many (`remaining`, rows and deletions),
 * for progress. A server without paging sends the whole delta and neither field. A cursor is
 * opaque text to the client (a rev, or `<rev>-<reset>` inside a row-shape re-send: the
 * server's row-shapes.ts).
 */
export const DELTA_LIMIT_PARAM = 'sinceLimit';
export const DELTA_COUNT_PARAM = 'sinceCount';
export const DELTA_MORE_FIELD = 'more';
export const DELTA_REMAINING_FIELD = 'remaining';
export const DELTA_MAX_PAGE = 5000;

/**
 * Ours: every list's changes in ONE request, `GET sync/changes?since=<lists>&sinceLimit=<n>`.
 * `<lists>` names the device's lists in its order (parents first) with their delta cursors
 * (encodePullCursors). The reply holds, in that order:
 * - `changes`: each list with something new, `{ entity, reply }`, `reply` being exactly what
 *   the list's own `since` call answers (a single document: its get reply and `cursor`);
 * - `reached`: how many of the lists this page got to: at most `sinceLimit` changes in all,
 *   the last list reached possibly cut (its reply says `more`);
 * - `cursor`: where every list reached but not in `changes` now stands;
 * - `more`: whether to ask again; `unknown`: names the server does not have.
 * A pull that finds nothing is one short request and a reply of a few dozen bytes.
 */
export const PULL_ALL_PATH = 'sync/changes';
export const PULL_ALL_FIELDS = { changes: 'changes', reached: 'reached', unknown: 'unknown' } as const;

/**
 * `name:cursor` per list, comma-separated; a list whose cursor is the one before it gives its
 * name alone, so a device in step sends its cursor once.
 */
export function encodePullCursors(lists: readonly (readonly [string, string])[]): string {
  return lists
    .map(([name, cursor], i) => (i > 0 && lists[i - 1][1] === cursor ? name : `${name}:${cursor}`))
    .join(',');
}

/** The lists and cursors of encodePullCursors' text; null when it is not such a text. */
export function decodePullCursors(text: string): [string, string][] | null {
  const lists: [string, string][] = [];
  for (const item of text.split(',')) {
    const m = /^([A-Za-z][A-Za-z0-9_]{0,63})(?::([0-9][0-9-]{0,40}))?$/.exec(item);
    const cursor = m?.[2] ?? lists.at(-1)?.[1];
    if (!m || cursor === undefined) return null;
    lists.push([m[1], cursor]);
  }
  return lists;
}

/** Add replies carry the new record's id here (and under the entity's key name). */
export const NEW_ID_FIELD = 'id';

/** Session cookie set by our login. */
export const SESSION_COOKIE = 'sid';

export type Id = string;

/** Ids travel as numbers or strings depending on the server; locally they are always text. */
export function normaliseId(value: unknown): Id | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}
