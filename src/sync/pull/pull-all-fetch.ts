/**
 * The pull of every list in one request (contract/wire.ts, PULL_ALL_PATH): the device sends
 * every list's cursor, and each reply is split into what the writer takes from each list's own
 * delta (pull.ts): one Fetch per list with something new, and one Advance for the lists the
 * page reached with nothing new. The next page is asked for from the cursors the reply leads
 * to, before it is written. A server without it (the PHP API, ours in legacy mode) answers 404:
 * the device then pulls list by list, and remembers so for the life of its API client.
 */
import { ROLE_FIELD } from '../../contract/accounts/admins-api';
import { isRole } from '../../contract/accounts/roles';
import { entityEndpoints, parseReply } from '../../contract/endpoints';
import type { EntityDescription } from '../../contract/entity';
import {
  DELTA_CURSOR_FIELD,
  DELTA_LIMIT_PARAM,
  DELTA_MORE_FIELD,
  DELTA_PARAM,
  encodePullCursors,
  normaliseId,
  PULL_ALL_FIELDS,
  PULL_ALL_PATH,
} from '../../contract/wire';
import { readCursors, readSignedInUser, writeRoleOf } from '../../db/meta';
import type { ApiClient } from '../api/api-client';
import { classify } from '../classify';
import type { SyncContext } from '../sync-context';
import type { Fetched, ReplyQueue } from './pull-fetch';

/** API clients whose server was found without the pull of every list. */
const without = new WeakSet<ApiClient>();

interface PageOfAll {
  changes: { entity: string; reply: Record<string, unknown> }[];
  reached: number;
  cursor: string;
  more: boolean;
  unknown: string[];
}

function readPage(body: Record<string, unknown>): PageOfAll | null {
  const changes = body[PULL_ALL_FIELDS.changes];
  const reached = body[PULL_ALL_FIELDS.reached];
  const cursor = normaliseId(body[DELTA_CURSOR_FIELD]);
  const unknown = body[PULL_ALL_FIELDS.unknown] ?? [];
  const valid =
    Array.isArray(changes) &&
    changes.every((c) => c && typeof c.entity === 'string' && c.reply && typeof c.reply === 'object') &&
    typeof reached === 'number' &&
    cursor !== null &&
    Array.isArray(unknown);
  if (!valid) return null;
  return { changes, reached, cursor, more: body[DELTA_MORE_FIELD] === true, unknown: unknown.map(String) };
}

/**
 * The role the server gives the session's administrator, carried by every page: an Owner's
 * change of it reaches this device with the next pull, and mutate refuses from then on what
 * the new role may not change. A reply without one leaves the role the sign-in told.
 */
async function keepRole(ctx: SyncContext, body: Record<string, unknown>): Promise<void> {
  const role = body[ROLE_FIELD];
  const user = isRole(role) ? await readSignedInUser(ctx.db) : null;
  if (user !== null && isRole(role)) await writeRoleOf(ctx.db, user, role);
}

/** One page from `cursors`: the page, the server's lack of the endpoint, or a failure. */
async function fetchPage(
  ctx: SyncContext,
  cursors: Map<EntityDescription, string>,
  pageSize: number,
): Promise<{ page: PageOfAll } | { missing: true } | { failed: Fetched }> {
  const since = encodePullCursors([...cursors].map(([entity, cursor]) => [entity.name, cursor]));
  const outcome = await ctx.api.request(PULL_ALL_PATH, {
    method: 'GET',
    query: { [DELTA_PARAM]: since, [DELTA_LIMIT_PARAM]: String(pageSize) },
  });
  if (outcome.kind !== 'unreachable' && (outcome.status === 404 || outcome.status === 405))
    return { missing: true };
  const verdict = classify(outcome, 'pull');
  if (verdict.kind === 'auth') return { failed: { ok: false, reason: 'auth', message: 'Please sign in' } };
  if (verdict.kind === 'retry')
    return { failed: { ok: false, reason: 'unreachable', message: verdict.reason } };
  if (verdict.kind === 'failed')
    return { failed: { ok: false, reason: 'refused', message: verdict.message ?? '' } };
  const page = readPage(verdict.body);
  if (!page)
    return { failed: { ok: false, reason: 'refused', message: `Unexpected reply from ${PULL_ALL_PATH}` } };
  await keepRole(ctx, verdict.body);
  return { page };
}

/** The replies of one list in the page, as the writer takes the list's own. */
function listReply(entity: EntityDescription, reply: Record<string, unknown>): Fetched {
  const ep = entityEndpoints(entity);
  const body = parseReply((entity.single ? ep.get : ep.list)!, reply);
  return body
    ? { ok: true, body }
    : { ok: false, reason: 'refused', message: `Unexpected reply from ${PULL_ALL_PATH}` };
}

/** Hands one page to the writer and moves `cursors` to where it leads. */
function pushPage(
  queue: ReplyQueue,
  page: PageOfAll,
  cursors: Map<EntityDescription, string>,
  seen: Set<EntityDescription>,
  first: boolean,
) {
  const lists = [...cursors.keys()];
  const byName = new Map(lists.map((e) => [e.name, e]));
  const named = new Set<EntityDescription>();
  for (const { entity: name, reply } of page.changes) {
    const entity = byName.get(name);
    if (!entity) continue;
    named.add(entity);
    const since = cursors.get(entity)!;
    const cursor = normaliseId(reply[DELTA_CURSOR_FIELD]) ?? page.cursor;
    const { [DELTA_CURSOR_FIELD]: _, ...document } = reply;
    const fetched = listReply(entity, entity.single ? document : reply);
    queue.push(
      entity.single
        ? { entity, since: null, first: true, fetched, cursor }
        : { entity, since, first: !seen.has(entity), fetched },
    );
    seen.add(entity);
    cursors.set(entity, cursor);
  }
  for (const name of page.unknown) {
    const entity = byName.get(name);
    if (entity) queue.push({ entity, since: null, first: true, fetched: { ok: false, reason: 'missing' } });
  }
  const quiet = lists.slice(0, page.reached).filter((e) => !named.has(e) && cursors.get(e) !== page.cursor);
  if (quiet.length > 0) queue.push({ advance: quiet, cursor: page.cursor, first });
  for (const entity of quiet) cursors.set(entity, page.cursor);
}

/**
 * Pages of every list until none remains; false when the server has no such endpoint (nothing
 * was pushed then). A failure is pushed for the writer, which ends the pull.
 */
export async function fetchAllLists(
  ctx: SyncContext,
  lists: readonly EntityDescription[],
  queue: ReplyQueue,
  pageSize: number,
): Promise<boolean> {
  if (without.has(ctx.api)) return false;
  const pulled = lists.filter((e) => e.single || e.api.list);
  const cursors = new Map<EntityDescription, string>();
  const stored = await readCursors(ctx.db);
  for (const entity of pulled) cursors.set(entity, stored[entity.table] ?? '0');
  const seen = new Set<EntityDescription>();
  for (let first = true; ; first = false) {
    if (!(await queue.room())) return true;
    const fetched = await fetchPage(ctx, cursors, pageSize);
    if ('missing' in fetched && first) {
      without.add(ctx.api);
      return false;
    }
    if ('missing' in fetched) {
      // Gone between two pages (the server replaced by an older one): the next pull finds out.
      queue.push({
        entity: pulled[0],
        since: null,
        first: false,
        fetched: { ok: false, reason: 'refused', message: `${PULL_ALL_PATH} is gone` },
      });
      return true;
    }
    if ('failed' in fetched) {
      queue.push({ entity: pulled[0], since: null, first: false, fetched: fetched.failed });
      return true;
    }
    pushPage(queue, fetched.page, cursors, seen, first);
    if (!fetched.page.more) return true;
  }
}
