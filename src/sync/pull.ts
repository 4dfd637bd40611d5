/**
 * Pull fills the local store from the list endpoints, parents before children. With our
 * server's delta extension it asks only for what changed since its cursor; against the
 * legacy server (no cursor in the reply) it takes the whole list and removes local rows the
 * server no longer has. A row with an unsent change is never overwritten or removed
 * (design brief §2), and each entity's batch is applied in one transaction.
 */

import { entityEndpoints, parseReply } from '../contract/endpoints';
import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { DELTA_CURSOR_FIELD, DELTA_DELETED_FIELD, DELTA_PARAM, normaliseId } from '../contract/wire';
import type { LocalDb, Row } from '../db/database';
import { patchSyncState, readCursor, writeCursor } from '../db/meta';
import { pendingKeys } from '../db/queries';
import { classify } from './classify';
import { SYNC_LOCK, withLock } from './lock';
import type { SyncContext } from './replay';

export type PullResult =
  | { ok: true }
  | { ok: false; reason: 'auth' | 'unreachable' | 'refused'; message: string };

/** Ids are text locally whatever the server sends; so are references to parents. */
export function normaliseRow(entity: EntityDescription, raw: Record<string, unknown>): Row | null {
  const key = normaliseId(raw[entity.key]);
  if (key === null) return null;
  const row: Row = { ...raw, [entity.key]: key };
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (spec.kind === 'ref' && raw[name] !== undefined) row[name] = normaliseId(raw[name]) ?? '';
  }
  return row;
}

async function applyBatch(
  db: LocalDb,
  entity: EntityDescription,
  rows: Row[],
  deleted: string[] | 'all-others',
  cursor: string | null,
): Promise<void> {
  const table = db.rows(entity);
  await db.transaction('rw', [table, db.outbox, db.meta], async () => {
    const pending = await pendingKeys(db, entity);
    await table.bulkPut(rows.filter((r) => !pending.has(r[entity.key] as string)));
    let remove: string[];
    if (deleted === 'all-others') {
      const present = new Set(rows.map((r) => r[entity.key] as string));
      const local = (await table.toCollection().primaryKeys()) as string[];
      remove = local.filter((k) => !present.has(k));
    } else {
      remove = deleted;
    }
    // Records made here and still queued are kept; one left without an entry is an orphan.
    await table.bulkDelete(remove.filter((k) => !pending.has(k)));
    await writeCursor(db, entity.table, cursor);
  });
}

export async function pullEntity(ctx: SyncContext, entity: EntityDescription): Promise<PullResult> {
  const { db, api } = ctx;
  const cursor = await readCursor(db, entity.table);
  const endpoint = entityEndpoints(entity).list;
  const outcome = await api.request(endpoint.path, {
    method: 'GET',
    query: { [DELTA_PARAM]: cursor ?? '0' },
  });
  const verdict = classify(outcome, 'pull');
  if (verdict.kind === 'auth') return { ok: false, reason: 'auth', message: 'Please sign in' };
  if (verdict.kind === 'retry') return { ok: false, reason: 'unreachable', message: verdict.reason };
  if (verdict.kind === 'failed') return { ok: false, reason: 'refused', message: verdict.message ?? '' };
  // A reply of the wrong shape changes nothing locally.
  const body = parseReply(endpoint, verdict.body);
  if (!body) return { ok: false, reason: 'refused', message: `Unexpected reply from ${endpoint.path}` };
  const list = body[entity.api.listField] as Record<string, unknown>[];
  const rows = list.map((r) => normaliseRow(entity, r as Record<string, unknown>)).filter((r) => r !== null);
  const nextCursor = normaliseId(body[DELTA_CURSOR_FIELD]);
  if (nextCursor === null) {
    await applyBatch(db, entity, rows, 'all-others', null);
  } else {
    const deleted = Array.isArray(body[DELTA_DELETED_FIELD])
      ? (body[DELTA_DELETED_FIELD] as unknown[]).map(normaliseId).filter((x) => x !== null)
      : [];
    await applyBatch(db, entity, rows, deleted, nextCursor);
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
