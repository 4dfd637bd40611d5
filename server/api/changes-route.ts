/**
 * GET {apiRoot}/sync/changes: every list's changes in one request (src/contract/wire.ts,
 * PULL_ALL_PATH). One safe cursor is read for the whole page (entities/delta.ts), and each
 * list's part is read exactly as its own `since` call reads it, with the room the lists before
 * it left: the same rows, deletions and order as the per-list calls, in one request. A single
 * document (About Us, Terms) comes whole, as its get answers it, when its row changed after
 * the cursor. A device in step asks with one short query and gets a few dozen bytes back.
 */
import type { Hono } from 'hono';
import { ROLE_FIELD } from '../../src/contract/accounts/admins-api';
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import {
  DELTA_CURSOR_FIELD,
  DELTA_DELETED_FIELD,
  DELTA_LIMIT_PARAM,
  DELTA_MAX_PAGE,
  DELTA_MORE_FIELD,
  DELTA_PARAM,
  decodePullCursors,
  PULL_ALL_FIELDS,
  PULL_ALL_PATH,
} from '../../src/contract/wire';
import { NO_AUDIT } from '../audit/recorder';
import type { Database } from '../db';
import { deltaPull, safeCursor } from '../entities/delta';
import { entityGraph } from '../entities/graph';
import type { ApiReply } from '../entities/handler';
import { jsonRows } from '../entities/json-rows';
import { type DeltaCursor, parseDeltaCursor } from '../entities/row-shapes';
import { rowSelect } from '../entities/select';
import { ident } from '../entities/sql';
import { singleGetHandler } from '../entity-writes/single';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import { NO_UPLOADS } from '../uploads/journal';

export const PULL_ALL_TEXT = {
  badRequest: `since must name each list once as name:cursor (or name alone for the cursor before it), and sinceLimit be a whole number from 1 to ${DELTA_MAX_PAGE}`,
};

/** A list's part of the page: its reply, and how many changes it holds; null when nothing is new. */
type ListPart = { reply: Record<string, unknown>; changes: number; more: boolean } | null;
type ListReader = (db: Database, since: DeltaCursor, room: number, safe: number) => Promise<ListPart>;

function listReader(entity: EntityDescription, rowsOf: ReturnType<typeof jsonRows>): ListReader {
  return async (db, since, room, safe) => {
    const reply = await deltaPull(db, entity, rowsOf, since, { limit: room, count: true, safe });
    const changes =
      (reply[listFieldOf(entity)] as unknown[]).length + (reply[DELTA_DELETED_FIELD] as unknown[]).length;
    const more = reply[DELTA_MORE_FIELD] === true;
    // Nothing new and the cursor where every quiet list goes (not inside a row-shape re-send).
    if (changes === 0 && !more && reply[DELTA_CURSOR_FIELD] === String(safe)) return null;
    return { reply: { success: true, ...reply }, changes, more };
  };
}

function documentReader(entity: EntityDescription): ListReader {
  const get = singleGetHandler(entity);
  const sql = `SELECT max(rev) AS rev FROM ${ident(entity.table)}`;
  return async (db, since, _room, safe) => {
    // A device that never had it gets the document even before anyone wrote it (empty), as
    // its get answers, so that it can be edited offline.
    const [{ rev }] = await db.query<{ rev: number | null }>(sql);
    if (since.rev > 0 && (rev === null || Number(rev) <= since.rev)) return null;
    const { body } = await get({
      q: db.query,
      query: {},
      body: {},
      adminId: 0,
      uploads: NO_UPLOADS,
      audit: NO_AUDIT,
    });
    return { reply: { ...body, [DELTA_CURSOR_FIELD]: String(safe) }, changes: 1, more: false };
  };
}

function listReaders(entities: readonly EntityDescription[]): Map<string, ListReader> {
  const graph = entityGraph(entities);
  const readers = new Map<string, ListReader>();
  for (const entity of entities) {
    if (entity.single) readers.set(entity.name, documentReader(entity));
    else if (entity.api.list)
      readers.set(entity.name, listReader(entity, jsonRows(entity, rowSelect(entity, graph))));
  }
  return readers;
}

/** The lists asked for with their cursors, and the page's size; null when malformed. */
function readRequest(query: Record<string, string>) {
  const lists = decodePullCursors(query[DELTA_PARAM] ?? '');
  const limitText = query[DELTA_LIMIT_PARAM] ?? String(DELTA_MAX_PAGE);
  const limit = /^[0-9]{1,5}$/.test(limitText) ? Number(limitText) : 0;
  if (!lists || limit < 1 || limit > DELTA_MAX_PAGE) return null;
  if (new Set(lists.map(([name]) => name)).size !== lists.length) return null;
  const cursors = lists.map(([name, text]) => [name, parseDeltaCursor(text)] as const);
  if (cursors.some(([, cursor]) => !cursor)) return null;
  return { lists: cursors as (readonly [string, DeltaCursor])[], limit };
}

async function pullAll(
  db: Database,
  readers: Map<string, ListReader>,
  request: NonNullable<ReturnType<typeof readRequest>>,
): Promise<ApiReply['body']> {
  const safe = await safeCursor(db);
  const changes: { entity: string; reply: Record<string, unknown> }[] = [];
  const unknown: string[] = [];
  let room = request.limit;
  let reached = 0;
  let more = false;
  for (const [name, since] of request.lists) {
    const read = readers.get(name);
    if (read && room === 0) {
      more = true;
      break;
    }
    reached++;
    if (!read) {
      unknown.push(name);
      continue;
    }
    const part = await read(db, since, room, safe);
    if (!part) continue;
    changes.push({ entity: name, reply: part.reply });
    room -= part.changes;
    if (part.more) {
      more = true;
      break;
    }
  }
  const { changes: changesField, reached: reachedField, unknown: unknownField } = PULL_ALL_FIELDS;
  return {
    success: true,
    [changesField]: changes,
    [reachedField]: reached,
    [DELTA_CURSOR_FIELD]: String(safe),
    [DELTA_MORE_FIELD]: more,
    ...(unknown.length > 0 ? { [unknownField]: unknown } : {}),
  };
}

export function registerPullAllRoute(
  app: Hono<AppEnv>,
  entities: readonly EntityDescription[],
  options: { db: Database; apiPrefix: string },
): void {
  const readers = listReaders(entities);
  app.get(`${options.apiPrefix}/${PULL_ALL_PATH}`, async (c) => {
    const request = readRequest(c.req.query());
    if (!request) return fail(c, 400, PULL_ALL_TEXT.badRequest);
    // The role as it is now: the device refreshes what it offers on every pull.
    return c.json({ ...(await pullAll(options.db, readers, request)), [ROLE_FIELD]: c.get('role') });
  });
}
