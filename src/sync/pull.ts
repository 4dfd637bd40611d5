/**
 * Pull fills the local store from the list endpoints, parents before children. With our
 * server's delta extension it asks only for what changed since its cursor, page after page
 * (issue 17): each page is written in its own transaction with the cursor it leads to and the
 * list's progress (pull-apply.ts), and the next page is on its way while one is written. So a
 * first sync of 100,000 students shows rows as they arrive, never holds more than two pages in
 * memory, and an interrupted one (reload, network lost, signed out) resumes at the last page
 * written. Against the legacy server (no cursor in the reply) it takes the whole list, writes
 * it in shares (PULL_SIZES) (each its own transaction, with progress) and then
 * removes the local rows the server no longer has. A row with an unsent change is never
 * overwritten or removed (design brief §2). An extension entity whose read answers 404 is
 * remembered as missing on this server (db/extensions.ts).
 */

import { entityEndpoints, listFieldOf, parseReply, rowOfGetReply } from '../contract/endpoints';
import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import {
  DELTA_COUNT_PARAM,
  DELTA_CURSOR_FIELD,
  DELTA_DELETED_FIELD,
  DELTA_LIMIT_PARAM,
  DELTA_MORE_FIELD,
  DELTA_PARAM,
  DELTA_REMAINING_FIELD,
  normaliseId,
} from '../contract/wire';
import { type WireRequest, wireRequest } from '../contract/wire-request';
import type { Row } from '../db/database';
import { markExtension } from '../db/extensions';
import { type ListProgress, patchSyncState, readCursor, readListProgress } from '../db/meta';
import { classify } from './classify';
import type { SyncContext } from './context';
import { requestOptions } from './encode';
import { SYNC_LOCK, withLock } from './lock';
import { normaliseRow } from './normalise';
import { applyPage, applyPulled, removeAbsent } from './pull-apply';

export type PullResult =
  | { ok: true }
  | { ok: false; reason: 'auth' | 'unreachable' | 'refused'; message: string };

export const PULL_SIZES = {
  /** Changes per delta page: a few thousand rows, about a megabyte of JSON. */
  deltaPage: 2500,
  /** Rows of a whole list (legacy server) per transaction. */
  wholeListShare: 2500,
};
/** The default page, for the benchmark's floor (tests make PULL_SIZES small to see pages). */
export const DELTA_PAGE = PULL_SIZES.deltaPage;

type Fetched =
  | { ok: true; body: Record<string, unknown> }
  | Extract<PullResult, { ok: false }>
  /** An extension entity's read answered 404: this server does not have it. */
  | { ok: false; reason: 'missing' };

async function fetchReply(
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

/**
 * What a fetch that did not bring rows means: an extension the server lacks is remembered and
 * the pull goes on with the other entities; anything else stops it.
 */
async function unfetched(
  ctx: SyncContext,
  entity: EntityDescription,
  fetched: Exclude<Fetched, { ok: true }>,
): Promise<PullResult> {
  if (fetched.reason !== 'missing') return fetched;
  await markExtension(ctx.db, entity.name, false);
  return { ok: true };
}

/** A single document (About Us) is pulled whole from its get endpoint. */
async function pullSingle(ctx: SyncContext, entity: EntityDescription): Promise<PullResult> {
  const fetched = await fetchReply(ctx, entity, wireRequest(entity, { op: 'get' }));
  if (!fetched.ok) return unfetched(ctx, entity, fetched);
  if (entity.extension) await markExtension(ctx.db, entity.name, true);
  const row = normaliseRow(entity, rowOfGetReply(entity, fetched.body) as Record<string, unknown>);
  await applyPulled(ctx.db, entity, { rows: row ? [row] : [], deleted: [], cursor: null });
  return { ok: true };
}

const rowsOf = (entity: EntityDescription, body: Record<string, unknown>): Row[] =>
  (body[listFieldOf(entity)] as Record<string, unknown>[])
    .map((r) => normaliseRow(entity, r))
    .filter((r) => r !== null);

/** One delta page from `since`; the first of a pull also asks how many changes remain. */
const deltaRequest = (entity: EntityDescription, since: string, first: boolean) =>
  wireRequest(entity, {
    op: 'list',
    params: {
      [DELTA_PARAM]: since,
      [DELTA_LIMIT_PARAM]: String(PULL_SIZES.deltaPage),
      ...(first ? { [DELTA_COUNT_PARAM]: '1' } : {}),
    },
  });

export async function pullEntity(ctx: SyncContext, entity: EntityDescription): Promise<PullResult> {
  if (entity.single) return pullSingle(ctx, entity);
  if (!entity.api.list) return { ok: true };
  const { db } = ctx;
  const since = (await readCursor(db, entity.table)) ?? '0';
  // Progress of an interrupted pull goes on only from the cursor it was written with (a
  // discarded change resets the cursor: the count starts again).
  const kept = await readListProgress(db, entity.table);
  let progress = kept && kept.cursor === since ? kept : null;
  let next = fetchReply(ctx, entity, deltaRequest(entity, since, true));
  let first = true;
  for (;;) {
    const fetched = await next;
    if (!fetched.ok) return unfetched(ctx, entity, fetched);
    const { body } = fetched;
    if (first && entity.extension) await markExtension(db, entity.name, true);
    const cursor = normaliseId(body[DELTA_CURSOR_FIELD]);
    // No cursor: a server without the delta extension sent the whole list.
    if (cursor === null) return pullWholeList(ctx, entity, rowsOf(entity, body), kept !== null);
    const more = body[DELTA_MORE_FIELD] === true;
    // The next page travels while this one is written.
    if (more) next = fetchReply(ctx, entity, deltaRequest(entity, cursor, false));
    const rows = rowsOf(entity, body);
    const deleted = Array.isArray(body[DELTA_DELETED_FIELD])
      ? (body[DELTA_DELETED_FIELD] as unknown[]).map(normaliseId).filter((x) => x !== null)
      : [];
    progress = nextProgress(progress, rows.length + deleted.length, body[DELTA_REMAINING_FIELD], cursor);
    await applyPage(db, entity, {
      rows,
      deleted,
      cursor,
      // A pull that fits one page shows none; a longer one keeps it until its last page.
      progress: more ? progress : first && !kept ? undefined : null,
    });
    if (!more) return { ok: true };
    first = false;
  }
}

/** Received so far and of how many: the server's count when it gave one, else the last total. */
function nextProgress(
  before: ListProgress | null,
  changes: number,
  remaining: unknown,
  cursor: string,
): ListProgress {
  const received = (before?.received ?? 0) + changes;
  const total = typeof remaining === 'number' ? received + remaining : (before?.total ?? received);
  // Writes made while the pull runs extend it past the count it began with.
  return { received, total: Math.max(total, received), cursor };
}

/**
 * A whole list: shares of rows, each its own transaction, then what the server lacks goes.
 * `hadProgress`: a progress record is left from an earlier pull and must go at the end.
 */
async function pullWholeList(
  ctx: SyncContext,
  entity: EntityDescription,
  rows: Row[],
  hadProgress: boolean,
): Promise<PullResult> {
  const { db } = ctx;
  const total = rows.length;
  const size = PULL_SIZES.wholeListShare;
  const shown = total > size;
  for (let at = 0; at < total; at += size) {
    const share = rows.slice(at, at + size);
    const received = at + share.length;
    await applyPage(db, entity, {
      rows: share,
      deleted: [],
      progress: shown ? { received, total, cursor: null } : undefined,
    });
  }
  const present = new Set(rows.map((r) => r[entity.key] as string));
  await removeAbsent(db, entity, present, shown || hadProgress ? null : undefined);
  return { ok: true };
}

async function pullLocked(ctx: SyncContext): Promise<PullResult> {
  for (const entity of entities) {
    const result = await pullEntity(ctx, entity);
    if (!result.ok) {
      if (result.reason === 'auth') await patchSyncState(ctx.db, { authRequired: true });
      else await patchSyncState(ctx.db, { lastError: result.message });
      return result;
    }
  }
  await patchSyncState(ctx.db, { lastError: null, lastSyncedAt: Date.now() });
  return { ok: true };
}

export function pull(ctx: SyncContext): Promise<PullResult> {
  return withLock(SYNC_LOCK, () => pullLocked(ctx));
}
