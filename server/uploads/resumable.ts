/**
 * Resumable uploads: the tus protocol through @tus/server, mounted at /api/uploads/resumable/
 * behind the session check. A large file arrives in chunks; a dropped connection costs only
 * what was in flight, since the client asks for the offset the server has (HEAD) and goes on
 * from there. The record's own request then names the finished upload (`tus:<id>` in the file
 * field, src/contract/resumable.ts), and entity-writes/files.ts moves it into the field's upload folder
 * through the request's upload journal.
 *
 * - Uploads live in the storage's `tus` part (server/storage: DATA_DIR/tus, or `tus/` in the
 *   bucket), and a database lease (storage/upload-locks.ts) keeps two processes from writing
 *   one at once: any process may receive any chunk.
 * - An upload belongs to the administrator who created it: its id starts with their admin
 *   id, and a request for another administrator's upload is answered as for an unknown one.
 * - At most RESUMABLE_MAX_BYTES (1 GB) per upload; the field's FileRule decides at the
 *   record's request whether that file fits. The length is declared at creation
 *   (`Upload-Defer-Length` is refused, 400), and one administrator's uploads not yet taken by
 *   a record may add up to `pendingLimitBytes` (UPLOAD_PENDING_MB) at most: a creation past it
 *   is refused with 413. Table resumable_uploads keeps each one's owner, length and last chunk.
 * - One untouched for ABANDONED_AFTER_MS (24 h) is removed, at start and then every hour.
 * - Error answers are JSON `{success: false, message}` like every /api answer; tus headers stay.
 * - Every answer closes its connection, so that a cut chunk is resumed from the server's
 *   offset rather than re-sent whole by the browser (see `answer`).
 */

import { randomBytes } from 'node:crypto';
import { Server } from '@tus/server';
import type { Context, Hono } from 'hono';
import { mayChange } from '../../src/contract/accounts/roles';
import { entities } from '../../src/contract/entities';
import { RESUMABLE_MAX_BYTES, RESUMABLE_PATH, referencedUpload } from '../../src/contract/resumable';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import { TEXT } from '../http/reply';
import { repeatEvery } from '../kit/upkeep';
import { requestLog } from '../ops/context';
import type { FileStorage } from '../storage/types';
import { DatabaseLocker, type LeaseTimes } from '../storage/upload-locks';
import { SNIFF_BYTES } from './sniff';
import type { MovableFile } from './store';

/** An upload nobody touched for this long is abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** UPLOAD_PENDING_MB's default: what one administrator's uploads not yet taken may add up to. */
export const DEFAULT_PENDING_MB = 2048;

/** A finished upload of the asking administrator, ready to become a stored file. */
export interface FinishedUpload extends MovableFile {
  size: number;
  /** Its first bytes, for the content check (sniff.ts). */
  head: Uint8Array;
  /** The name the file had on the device, from the upload's `filename` metadata. */
  name: string | null;
}

export interface ResumableOptions {
  storage: FileStorage;
  db: Pick<Database, 'query' | 'tx'>;
  /** Default DEFAULT_PENDING_MB. */
  pendingLimitBytes?: number;
  /** The lock leases (tests shorten them). */
  lease?: LeaseTimes;
}

export interface ResumableUploads {
  /** Mounts the tus endpoint; call after the session check. */
  register(app: Hono<AppEnv>, apiPrefix: string): void;
  /** The finished upload a reference names, if it is this administrator's; else why not. */
  finished(adminId: number, reference: string): Promise<FinishedUpload | { refused: string }>;
  /** Removes uploads untouched since `now - ABANDONED_AFTER_MS`; returns how many. */
  sweep(now?: number): Promise<number>;
  /** Sweeps now and every hour; returns the function that stops it. */
  /** Sweeps now and every so often; returns the function that stops it (after a sweep in flight). */
  startSweeping(): () => Promise<void>;
}

const ID = /^(\d+)-[0-9a-f]{32}$/;
const ownerOf = (id: string) => Number(ID.exec(id)?.[1] ?? Number.NaN);

const UNKNOWN = 'names an upload that does not exist';

/**
 * The request with a body that ENDS, rather than fails, when the client goes away mid-chunk:
 * tus then stores every byte that arrived, and the client's HEAD finds them (@tus/server's
 * own Node integration ends the body in the same way). Failing would make tus drop what it
 * had not written yet (a quarter of a 1 MB chunk in the test); ending loses at most what Node
 * had buffered (tens of KB).
 */
function keepingPartialBody(raw: Request): Request {
  if (!raw.body || (raw.method !== 'PATCH' && raw.method !== 'POST')) return raw;
  const reader = raw.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The answer as the client should get it. Errors become JSON `{success: false, message}`, tus
 * headers kept. Every answer closes its connection: a browser re-sends by itself a request
 * whose REUSED connection dropped (Chromium does, PATCH included), and that resend carries the
 * old offset, so its whole chunk would travel only to be refused (409). On a fresh connection
 * the drop reaches tus-js-client, which asks for the offset first. One connection per 5 MB
 * chunk costs nothing worth counting.
 */
async function answer(res: Response): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.set('Connection', 'close');
  if (res.status < 400) return new Response(res.body, { status: res.status, headers });
  const message = (await res.text()).trim() || 'The upload request was refused';
  headers.set('Content-Type', 'application/json');
  headers.delete('Content-Length');
  return new Response(JSON.stringify({ success: false, message }), { status: res.status, headers });
}

const MB = 1024 * 1024;

/** The tus request's upload id (the last path segment), for bookkeeping after tus answered. */
const idOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split('/').at(-1) ?? '');

type UploadsDb = ResumableOptions['db'];
/** The administrator of each request being handled, for tus's hooks (they get the request). */
type AdminOf = WeakMap<Request, number>;

const forget = (db: UploadsDb, id: string) => db.query('DELETE FROM resumable_uploads WHERE id = $1', [id]);

/**
 * Records a new upload unless it would take its administrator past the limit. One
 * administrator's creations are counted one at a time (a transaction-scoped advisory lock),
 * so two at once cannot both slip under it.
 */
const reserve = (db: UploadsDb, limit: number, id: string, admin: number, length: number) =>
  db.tx(async (q) => {
    await q('SELECT pg_advisory_xact_lock(18002, $1)', [admin]);
    const [{ held }] = await q<{ held: number }>(
      'SELECT coalesce(sum(length), 0)::bigint AS held FROM resumable_uploads WHERE admin_id = $1',
      [admin],
    );
    if (Number(held) + length > limit) return false;
    await q('INSERT INTO resumable_uploads (id, admin_id, length) VALUES ($1, $2, $3)', [id, admin, length]);
    return true;
  });

async function sweepAbandoned(storage: FileStorage, db: UploadsDb, now: number): Promise<number> {
  const cutoff = now - ABANDONED_AFTER_MS;
  const rows = await db.query<{ id: string; touched: number }>(
    'SELECT id, (extract(epoch FROM touched_at) * 1000)::float8 AS touched FROM resumable_uploads',
  );
  const touched = new Map(rows.map((r) => [r.id, Number(r.touched)]));
  let removed = 0;
  for (const upload of await storage.tus.list()) {
    // In a bucket an upload's objects change only at creation and at its last chunk (the
    // parts of one in progress are not objects), so the table's time counts too.
    if (Math.max(upload.modified.getTime(), touched.get(upload.id) ?? 0) >= cutoff) continue;
    await storage.tus.remove(upload.id);
    removed += 1;
  }
  await db.query('DELETE FROM resumable_uploads WHERE touched_at < $1', [new Date(cutoff)]);
  return removed;
}

function tusServer(options: ResumableOptions, path: string, limit: number, adminOf: AdminOf): Server {
  const { db } = options;
  return new Server({
    path,
    datastore: options.storage.tus.datastore,
    locker: new DatabaseLocker(db, options.lease),
    maxSize: RESUMABLE_MAX_BYTES,
    // Behind a proxy the Host header may not be the client's: a path-only Location is.
    relativeLocation: true,
    // Same origin only, like the rest of the API (no Access-Control-Allow-Origin).
    allowedOrigins: [],
    namingFunction: (req) => `${adminOf.get(req as Request)}-${randomBytes(16).toString('hex')}`,
    async onIncomingRequest(req, id) {
      const admin = adminOf.get(req as Request);
      if (admin === undefined || ownerOf(id) !== admin) throw { status_code: 404, body: 'Upload not found' };
    },
    async onUploadCreate(req, upload) {
      const admin = adminOf.get(req as Request) as number;
      if (!(await reserve(db, limit, upload.id, admin, upload.size ?? 0)))
        throw {
          status_code: 413,
          body: `Unfinished uploads may hold at most ${Math.floor(limit / MB)} MB per administrator: finish or discard earlier uploads first`,
        };
      return {};
    },
  });
}

/** The tus endpoint's handler: tus answers, then the table notes the chunk or the removal. */
function tusHandler(tus: Server, db: UploadsDb, adminOf: AdminOf) {
  return async (c: Context<AppEnv>) => {
    const method = c.req.raw.method;
    // Hono routes HEAD to GET handlers; a real GET (downloading a partial upload) is not offered.
    if (method === 'GET') return c.json({ success: false, message: 'Method not allowed' }, 405);
    // The app always knows a file's size; the limit above is counted on it.
    if (method === 'POST' && c.req.header('Upload-Defer-Length') !== undefined)
      return answer(
        new Response('Upload-Defer-Length is not accepted: declare the size in Upload-Length', {
          status: 400,
          headers: { 'Tus-Resumable': '1.0.0' },
        }),
      );
    // An upload is only ever the file of a change: a role that may change nothing starts none.
    if (method === 'POST' && !entities.some((entity) => mayChange(c.var.role, entity)))
      return c.json({ success: false, message: TEXT.forbidden }, 403);
    const request = keepingPartialBody(c.req.raw);
    adminOf.set(request, c.var.adminId);
    const res = await tus.handleWeb(request);
    // Bookkeeping after the fact: the chunk is stored whatever becomes of it (at worst the
    // sweep or the limit sees an older time or a removed upload, until the next chunk).
    const noted =
      method === 'PATCH' && res.status === 204
        ? db.query('UPDATE resumable_uploads SET touched_at = now() WHERE id = $1', [idOf(request)])
        : method === 'DELETE' && res.status === 204
          ? forget(db, idOf(request))
          : undefined;
    await noted?.catch((err) => requestLog().error({ err }, 'Could not note a resumable upload'));
    return answer(res);
  };
}

async function finishedUpload(
  storage: FileStorage,
  db: UploadsDb,
  adminId: number,
  reference: string,
): Promise<FinishedUpload | { refused: string }> {
  const id = referencedUpload(reference);
  if (!id || ownerOf(id) !== adminId) return { refused: UNKNOWN };
  let upload: Awaited<ReturnType<typeof storage.tus.datastore.getUpload>>;
  try {
    upload = await storage.tus.datastore.getUpload(id);
  } catch {
    return { refused: UNKNOWN };
  }
  if (upload.size === undefined || upload.offset !== upload.size)
    return {
      refused: `names an upload that is not finished (${upload.offset} of ${upload.size ?? '?'} bytes)`,
    };
  let head: Uint8Array;
  try {
    head = await storage.tus.head(id, SNIFF_BYTES);
  } catch {
    // Taken or removed by another request since (its info outlives its data for a moment).
    return { refused: UNKNOWN };
  }
  return {
    size: upload.size,
    head,
    name: upload.metadata?.filename ?? null,
    moveInto: (folder, name) => storage.tus.moveInto(id, folder, name),
    release: async () => void (await forget(db, id)),
  };
}

export function openResumableUploads(options: ResumableOptions): ResumableUploads {
  const { storage, db } = options;
  const limit = options.pendingLimitBytes ?? DEFAULT_PENDING_MB * MB;
  const adminOf: AdminOf = new WeakMap();
  const sweep = (now = Date.now()) => sweepAbandoned(storage, db, now);
  return {
    register(app, apiPrefix) {
      const path = `${apiPrefix}/${RESUMABLE_PATH}`;
      const handle = tusHandler(tusServer(options, path, limit, adminOf), db, adminOf);
      app.on(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'], [path, `${path}/*`], handle);
    },
    finished: (adminId, reference) => finishedUpload(storage, db, adminId, reference),
    sweep,
    startSweeping: () =>
      repeatEvery(SWEEP_EVERY_MS, sweep, (err) =>
        requestLog().error({ err }, 'Could not remove abandoned uploads'),
      ),
  };
}
