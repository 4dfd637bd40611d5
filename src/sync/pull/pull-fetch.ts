/**
 * The requests of a pull, in order, fetched ahead of the writing: pages of the pull of every
 * list (pull-all-fetch.ts) or, from a server without it, every list's delta pages (the next
 * one from the cursor of the reply before it) and then the next list's, each asked for as soon
 * as the reply before it has arrived, with at most `ahead` replies waiting to be written. So the server prepares page k+1 (and the next list's first page) while page k is
 * written, and a first sync takes about as long as its writes, not writes plus requests.
 * The requests still go one after another in the lists' order (parents first), as before.
 * Replies are held in memory only until written: at most `ahead` + 1 pages.
 */
import { entityEndpoints, parseReply } from '../../contract/endpoints';
import type { EntityDescription } from '../../contract/entity';
import {
  DELTA_COUNT_PARAM,
  DELTA_CURSOR_FIELD,
  DELTA_LIMIT_PARAM,
  DELTA_MORE_FIELD,
  DELTA_PARAM,
  normaliseId,
} from '../../contract/wire';
import { type WireRequest, wireRequest } from '../../contract/wire-request';
import { readCursor } from '../../db/meta';
import { requestOptions } from '../api/encode-request';
import { classify } from '../classify';
import type { SyncContext } from '../sync-context';

export type Fetched =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; reason: 'auth' | 'unreachable' | 'refused'; message: string }
  /** An extension entity's read answered 404: this server does not have it. */
  | { ok: false; reason: 'missing' };

/** One reply, for the writer: which list, from which cursor, whether it is the list's first. */
export interface Fetch {
  entity: EntityDescription;
  /** The delta cursor the request started from ('0': everything); null for a single document. */
  since: string | null;
  first: boolean;
  fetched: Fetched;
  /** A single document's cursor, when it came in the pull of every list. */
  cursor?: string;
}

/** Lists the pull of every list reached with nothing new: their cursors move to `cursor`. */
export interface Advance {
  advance: EntityDescription[];
  cursor: string;
  /** Whether it came with the pull's first page. */
  first: boolean;
}

export async function fetchReply(
  ctx: SyncContext,
  entity: EntityDescription,
  request: WireRequest,
): Promise<Fetched> {
  const outcome = await ctx.api.request(request.path, requestOptions(request));
  // The PHP API (or ours in legacy mode) has no such path; a PHP server's 404 may not be JSON.
  if (entity.extension && outcome.kind !== 'unreachable' && outcome.status === 404)
    return { ok: false, reason: 'missing' };
  const verdict = classify(outcome, 'pull');
  if (verdict.kind === 'auth') return { ok: false, reason: 'auth', message: 'Please sign in' };
  if (verdict.kind === 'retry') return { ok: false, reason: 'unreachable', message: verdict.reason };
  if (verdict.kind === 'failed') return { ok: false, reason: 'refused', message: verdict.message ?? '' };
  const ep = entityEndpoints(entity);
  // A reply of the wrong shape changes nothing locally.
  const body = parseReply((entity.single ? ep.get : ep.list)!, verdict.body);
  if (!body) return { ok: false, reason: 'refused', message: `Unexpected reply from ${request.path}` };
  return { ok: true, body };
}

/** One delta page from `since`; the first of a list also asks how many changes remain. */
const deltaRequest = (entity: EntityDescription, since: string, first: boolean, pageSize: number) =>
  wireRequest(entity, {
    op: 'list',
    params: {
      [DELTA_PARAM]: since,
      [DELTA_LIMIT_PARAM]: String(pageSize),
      ...(first ? { [DELTA_COUNT_PARAM]: '1' } : {}),
    },
  });

/** After the last reply: whether fetching ended by itself or failed (a cursor unreadable). */
export interface FetchEnd {
  end: true;
  error: unknown;
}

export type PullItem = Fetch | Advance | FetchEnd;

/** What a producer of replies hands them to: it waits for room, then pushes. */
export interface ReplyQueue {
  /** Resolves when another reply may be fetched: false once the writer stopped. */
  room(): Promise<boolean>;
  push(item: Fetch | Advance): void;
}

export interface FetchAhead {
  /** The next reply in order, then the end. */
  next(): Promise<PullItem>;
  /** The writer stops: no further request is made. */
  stop(): void;
}

/** Each list's delta pages, one list after another (a server without the pull of every list). */
export async function fetchEachList(
  ctx: SyncContext,
  lists: readonly EntityDescription[],
  queue: ReplyQueue,
  pageSize: number,
): Promise<void> {
  for (const entity of lists) {
    if (entity.single) {
      if (!(await queue.room())) return;
      const fetched = await fetchReply(ctx, entity, wireRequest(entity, { op: 'get' }));
      queue.push({ entity, since: null, first: true, fetched });
      if (!fetched.ok && fetched.reason !== 'missing') return;
      continue;
    }
    if (!entity.api.list) continue;
    let since = (await readCursor(ctx.db, entity.table)) ?? '0';
    for (let first = true; ; first = false) {
      if (!(await queue.room())) return;
      const fetched = await fetchReply(ctx, entity, deltaRequest(entity, since, first, pageSize));
      queue.push({ entity, since, first, fetched });
      // A failure stops the pull (an extension the server lacks only this list).
      if (!fetched.ok) {
        if (fetched.reason === 'missing') break;
        return;
      }
      const cursor = normaliseId(fetched.body[DELTA_CURSOR_FIELD]);
      // No cursor (a whole list from a server without the delta) or no more pages: next list.
      if (cursor === null || fetched.body[DELTA_MORE_FIELD] !== true) break;
      since = cursor;
    }
  }
}

/**
 * Runs `produce` ahead of the writer: at most `ahead` replies wait to be written. The end is
 * one more item, carrying what went wrong if something did (a cursor unreadable).
 */
export function fetchAhead(ahead: number, produce: (queue: ReplyQueue) => Promise<void>): FetchAhead {
  const ready: PullItem[] = [];
  let stopped = false;
  let taken: (() => void) | null = null;
  let arrived: (() => void) | null = null;
  const push = (item: PullItem) => {
    ready.push(item);
    arrived?.();
  };
  const room = async () => {
    while (!stopped && ready.length >= ahead) await new Promise<void>((r) => (taken = r));
    return !stopped;
  };
  void produce({ room, push }).then(
    () => push({ end: true, error: null }),
    (error: unknown) => push({ end: true, error }),
  );

  return {
    async next() {
      while (ready.length === 0) await new Promise<void>((r) => (arrived = r));
      const item = ready.shift()!;
      taken?.();
      return item;
    },
    stop() {
      stopped = true;
      taken?.();
    },
  };
}
