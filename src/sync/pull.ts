/**
 * Pull fills the local store from the list endpoints, parents before children. With our
 * server's delta extension it asks only for what changed since its cursor; against the
 * legacy server (no cursor in the reply) it takes the whole list and removes local rows the
 * server no longer has. A row with an unsent change is never overwritten or removed
 * (design brief §2), and each entity's batch is applied in one transaction. An extension
 * entity whose read answers 404 is remembered as missing on this server (db/extensions.ts).
 */

import { entityEndpoints, listFieldOf, parseReply, rowOfGetReply } from '../contract/endpoints';
import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { DELTA_CURSOR_FIELD, DELTA_DELETED_FIELD, DELTA_PARAM, normaliseId } from '../contract/wire';
import { type WireRequest, wireRequest } from '../contract/wire-request';
import { markExtension } from '../db/extensions';
import { patchSyncState, readCursor } from '../db/meta';
import { classify } from './classify';
import type { SyncContext } from './context';
import { requestOptions } from './encode';
import { SYNC_LOCK, withLock } from './lock';
import { normaliseRow } from './normalise';
import { applyPulled } from './pull-apply';

export type PullResult =
  | { ok: true }
  | { ok: false; reason: 'auth' | 'unreachable' | 'refused'; message: string };

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

export async function pullEntity(ctx: SyncContext, entity: EntityDescription): Promise<PullResult> {
  if (entity.single) return pullSingle(ctx, entity);
  if (!entity.api.list) return { ok: true };
  const cursor = await readCursor(ctx.db, entity.table);
  const fetched = await fetchReply(
    ctx,
    entity,
    wireRequest(entity, { op: 'list', params: { [DELTA_PARAM]: cursor ?? '0' } }),
  );
  if (!fetched.ok) return unfetched(ctx, entity, fetched);
  if (entity.extension) await markExtension(ctx.db, entity.name, true);
  const { body } = fetched;
  const list = body[listFieldOf(entity)] as Record<string, unknown>[];
  const rows = list.map((r) => normaliseRow(entity, r)).filter((r) => r !== null);
  const nextCursor = normaliseId(body[DELTA_CURSOR_FIELD]);
  if (nextCursor === null) {
    await applyPulled(ctx.db, entity, { rows, deleted: 'all-others', cursor: null });
  } else {
    const deleted = Array.isArray(body[DELTA_DELETED_FIELD])
      ? (body[DELTA_DELETED_FIELD] as unknown[]).map(normaliseId).filter((x) => x !== null)
      : [];
    await applyPulled(ctx.db, entity, { rows, deleted, cursor: nextCursor });
  }
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
