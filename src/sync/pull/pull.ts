/**
 * Pull fills the local store from the list endpoints, parents before children. With our
 * server's delta extension it asks only for what changed since its cursor, page after page:
 * each page is written in its own transaction with the cursor it leads to and the
 * list's progress (pull-apply.ts), while the next pages are fetched ahead (pull-fetch.ts). So
 * a first sync of 100,000 students shows rows as they arrive, holds only a few pages in memory,
 * and an interrupted one (reload, network lost, signed out) resumes at the last page written.
 * Against the legacy server (no cursor in the reply) it takes the whole list, writes it in
 * shares (PULL_SIZES), each its own transaction with progress, and then removes the local rows
 * the server no longer has. A row with an unsent change is never overwritten or removed
 * (design brief §2). An extension entity whose read answers 404 is remembered as missing on
 * this server (db/known-extensions.ts).
 */
import { listFieldOf, rowOfGetReply } from '../../contract/endpoints';
import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import {
  DELTA_CURSOR_FIELD,
  DELTA_DELETED_FIELD,
  DELTA_MAX_PAGE,
  DELTA_MORE_FIELD,
  DELTA_REMAINING_FIELD,
  normaliseId,
} from '../../contract/wire';
import type { Row } from '../../db/database';
import { markExtension } from '../../db/known-extensions';
import {
  type ListProgress,
  patchSyncState,
  readPullProgress,
  writeCursor,
  writeListProgress,
} from '../../db/meta';
import { measurer } from '../../db/user-timing';
import { SYNC_LOCK, withLock } from '../lock';
import type { SyncContext } from '../sync-context';
import { normaliseRow, normaliseRows } from './normalise';
import { fetchAllLists } from './pull-all-fetch';
import { applyPage, applyPulled, removeAbsent } from './pull-apply';
import { type Advance, type Fetch, fetchAhead, fetchEachList } from './pull-fetch';

export type PullResult =
  | { ok: true }
  | { ok: false; reason: 'auth' | 'unreachable' | 'refused'; message: string };

export const PULL_SIZES = {
  /**
   * Changes per delta page, the server's most (DELTA_MAX_PAGE): about two megabytes of JSON.
   * Each page is a transaction, and between two the store waits for this thread (the commit,
   * the next page's transaction opened, its outbox read, its first slice copied): a first sync
   * of 100,000 students took 1.41-1.63x the write floor in pages of 2,500 and 0.95-1.21x in
   * pages of 5,000, run in turn (bench/README.md, "First sync at scale").
   */
  deltaPage: DELTA_MAX_PAGE,
  /** Replies fetched ahead of the one being written. */
  ahead: 2,
  /** Rows of a whole list (legacy server) per transaction. */
  wholeListShare: 2500,
};

/** User Timing per page ('pull wait', 'pull normalise', 'pull write'): where a first sync's time goes. */
const measure = measurer('pull');

const rowsOf = (entity: EntityDescription, body: Record<string, unknown>): Promise<Row[]> =>
  normaliseRows(entity, body[listFieldOf(entity)] as Record<string, unknown>[]);

/** What one list's pull carries from page to page. */
interface ListState {
  /** Progress left by an interrupted pull, if any. */
  kept: ListProgress | null;
  /** The progress this pull has written (or goes on from). */
  progress: ListProgress | null;
}

/** Writes one reply; a result ends the pull (a failure), undefined goes on. */
async function write(
  ctx: SyncContext,
  { entity, since, first, fetched, cursor: documentCursor }: Fetch,
  state: ListState,
): Promise<PullResult | undefined> {
  const { db } = ctx;
  if (!fetched.ok) {
    if (fetched.reason !== 'missing') return fetched;
    await markExtension(db, entity.name, false);
    return undefined;
  }
  const { body } = fetched;
  if (first && entity.extension) await markExtension(db, entity.name, true);
  // A single document (About Us) comes whole, as its get endpoint answers.
  if (since === null) {
    const row = normaliseRow(entity, rowOfGetReply(entity, body) as Record<string, unknown>);
    await applyPulled(db, entity, { rows: row ? [row] : [], deleted: [], cursor: documentCursor ?? null });
    return undefined;
  }
  const cursor = normaliseId(body[DELTA_CURSOR_FIELD]);
  // No cursor: a server without the delta extension sent the whole list.
  if (cursor === null) {
    await writeWholeList(ctx, entity, await rowsOf(entity, body), state.kept !== null);
    return undefined;
  }
  const more = body[DELTA_MORE_FIELD] === true;
  let at = performance.now();
  const rows = await rowsOf(entity, body);
  const deleted = Array.isArray(body[DELTA_DELETED_FIELD])
    ? (body[DELTA_DELETED_FIELD] as unknown[]).map(normaliseId).filter((x) => x !== null)
    : [];
  state.progress = nextProgress(
    state.progress,
    rows.length + deleted.length,
    body[DELTA_REMAINING_FIELD],
    cursor,
  );
  at = measure('normalise', at);
  await applyPage(db, entity, {
    rows,
    deleted,
    cursor,
    // A pull that fits one page shows none; a longer one keeps it until its last page.
    progress: more ? state.progress : first && !state.kept ? undefined : null,
  });
  measure('write', at);
  return undefined;
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
async function writeWholeList(
  ctx: SyncContext,
  entity: EntityDescription,
  rows: Row[],
  hadProgress: boolean,
): Promise<void> {
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
}

/** Every list's replies, written in order as they arrive. */
async function pullLists(ctx: SyncContext, lists: readonly EntityDescription[]): Promise<PullResult> {
  // Progress left by an interrupted pull, every list's in one read (usually none); only this
  // pull writes it, under the sync lock.
  const left = await readPullProgress(ctx.db);
  const { ahead, deltaPage } = PULL_SIZES;
  const replies = fetchAhead(ahead, async (queue) => {
    if (!(await fetchAllLists(ctx, lists, queue, deltaPage)))
      await fetchEachList(ctx, lists, queue, deltaPage);
  });
  // The pull of every list interleaves lists: a list cut by a page goes on after others.
  const states = new Map<EntityDescription, ListState>();
  try {
    for (;;) {
      const waited = performance.now();
      const item = await replies.next();
      measure('wait', waited);
      if ('end' in item) {
        if (item.error) throw item.error;
        return { ok: true };
      }
      if ('advance' in item) {
        await advanceQuietLists(ctx, item, left);
        continue;
      }
      if (item.first) {
        // Progress of an interrupted pull goes on only from the cursor it was written with (a
        // discarded change resets the cursor: the count starts again).
        const kept = item.since === null ? null : (left[item.entity.table] ?? null);
        states.set(item.entity, { kept, progress: kept && kept.cursor === item.since ? kept : null });
      }
      const state = states.get(item.entity) ?? { kept: null, progress: null };
      const failed = await write(ctx, item, state);
      if (failed) return failed;
    }
  } finally {
    replies.stop();
  }
}

/**
 * Lists a page of the pull of every list reached with nothing new: their cursors move on (and
 * a progress left by an interrupted pull goes, the list being complete), in one transaction.
 * The first page tells that the server has each extension list.
 */
async function advanceQuietLists(
  ctx: SyncContext,
  { advance, cursor, first }: Advance,
  left: Record<string, ListProgress>,
) {
  const { db } = ctx;
  await db.transaction('rw', db.meta, async () => {
    for (const { table } of advance) {
      await writeCursor(db, table, cursor);
      if (left[table]) await writeListProgress(db, table, null);
      delete left[table];
    }
  });
  if (!first) return;
  for (const entity of advance) if (entity.extension) await markExtension(db, entity.name, true);
}

async function pullLocked(ctx: SyncContext): Promise<PullResult> {
  const result = await pullLists(ctx, entities);
  if (!result.ok) {
    if (result.reason === 'auth') await patchSyncState(ctx.db, { authRequired: true });
    else await patchSyncState(ctx.db, { lastError: result.message });
    return result;
  }
  await patchSyncState(ctx.db, { lastError: null, lastSyncedAt: Date.now() });
  return { ok: true };
}

export function pull(ctx: SyncContext): Promise<PullResult> {
  return withLock(SYNC_LOCK, () => pullLocked(ctx));
}
