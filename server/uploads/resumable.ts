/**
 * Resumable uploads: the tus protocol through @tus/server and its file store, mounted at
 * /api/uploads/resumable/ behind the session check. A large file arrives in chunks; a dropped
 * connection costs only what was in flight, since the client asks for the offset the server
 * has (HEAD) and goes on from there. The record's own request then names the finished upload
 * (`tus:<id>` in the file field, src/contract/resumable.ts), and files.ts moves it into the
 * field's upload folder through the request's upload journal.
 *
 * - An upload belongs to the administrator who created it: its id starts with their admin
 *   id, and a request for another administrator's upload is answered as for an unknown one.
 * - At most RESUMABLE_MAX_BYTES (1 GB) per upload; the field's FileRule decides at the
 *   record's request whether that file fits.
 * - Partial and finished uploads live in DATA_DIR/tus (`<id>` and `<id>.json`). One untouched
 *   for ABANDONED_AFTER_MS (24 h) is removed, at start and then every hour.
 * - Error answers are JSON `{success: false, message}` like every /api answer; tus headers stay.
 * - Every answer closes its connection, so that a cut chunk is resumed from the server's
 *   offset rather than re-sent whole by the browser (see `answer`).
 */
import { randomBytes } from 'node:crypto';
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { Context, Hono } from 'hono';
import { RESUMABLE_MAX_BYTES, RESUMABLE_PATH, referencedUpload } from '../../src/contract/resumable';
import type { AppEnv } from '../http/env';
import { SNIFF_BYTES } from './sniff';

/** An upload nobody touched for this long is abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** A finished upload of the asking administrator, ready to become a stored file. */
export interface FinishedUpload {
  size: number;
  /** Its first bytes, for the content check (sniff.ts). */
  head: Uint8Array;
  /** Moves the bytes to `dest` (a rename, never read into memory) and forgets the upload. */
  moveTo(dest: string): Promise<void>;
}

export interface ResumableUploads {
  /** Mounts the tus endpoint; call after the session check. */
  register(app: Hono<AppEnv>, apiPrefix: string): void;
  /** The finished upload a reference names, if it is this administrator's; else why not. */
  finished(adminId: number, reference: string): Promise<FinishedUpload | { refused: string }>;
  /** Removes uploads untouched since `now - ABANDONED_AFTER_MS`; returns how many. */
  sweep(now?: number): Promise<number>;
  /** Sweeps now and every hour; returns the function that stops it. */
  startSweeping(): () => void;
}

const ID = /^(\d+)-[0-9a-f]{32}$/;
const ownerOf = (id: string) => Number(ID.exec(id)?.[1] ?? Number.NaN);

const UNKNOWN = 'names an upload that does not exist';

/** A rename, or a streamed copy when the folders are on different file systems. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

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

export function openResumableUploads(dir: string): ResumableUploads {
  const store = new FileStore({ directory: dir });
  /** The administrator of each request being handled, for tus's hooks (they get the request). */
  const adminOf = new WeakMap<Request, number>();

  async function sweep(now = Date.now()): Promise<number> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => n.replace(/\.json$/, '')));
    let removed = 0;
    for (const id of ids) {
      const data = join(dir, id);
      // The data file's time is the last chunk received; without it (a moved upload whose
      // info file stayed), the info file's.
      const touched = await stat(data)
        .catch(() => stat(`${data}.json`))
        .then((s) => s.mtimeMs)
        .catch(() => now);
      if (now - touched < ABANDONED_AFTER_MS) continue;
      await rm(data, { force: true });
      await rm(`${data}.json`, { force: true });
      removed += 1;
    }
    return removed;
  }

  return {
    register(app, apiPrefix) {
      const path = `${apiPrefix}/${RESUMABLE_PATH}`;
      const tus = new Server({
        path,
        datastore: store,
        maxSize: RESUMABLE_MAX_BYTES,
        // Behind a proxy the Host header may not be the client's: a path-only Location is.
        relativeLocation: true,
        // Same origin only, like the rest of the API (no Access-Control-Allow-Origin).
        allowedOrigins: [],
        namingFunction: (req) => `${adminOf.get(req as Request)}-${randomBytes(16).toString('hex')}`,
        async onIncomingRequest(req, id) {
          const admin = adminOf.get(req as Request);
          if (admin === undefined || ownerOf(id) !== admin)
            throw { status_code: 404, body: 'Upload not found' };
        },
      });
      const handle = async (c: Context<AppEnv>) => {
        // Hono routes HEAD to GET handlers; a real GET (downloading a partial upload) is not offered.
        if (c.req.raw.method === 'GET') return c.json({ success: false, message: 'Method not allowed' }, 405);
        const request = keepingPartialBody(c.req.raw);
        adminOf.set(request, c.var.adminId);
        return answer(await tus.handleWeb(request));
      };
      app.on(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'], [path, `${path}/*`], handle);
    },

    async finished(adminId, reference) {
      const id = referencedUpload(reference);
      if (!id || ownerOf(id) !== adminId) return { refused: UNKNOWN };
      let upload: Awaited<ReturnType<FileStore['getUpload']>>;
      try {
        upload = await store.getUpload(id);
      } catch {
        return { refused: UNKNOWN };
      }
      if (upload.size === undefined || upload.offset !== upload.size)
        return {
          refused: `names an upload that is not finished (${upload.offset} of ${upload.size ?? '?'} bytes)`,
        };
      const data = join(dir, id);
      return {
        size: upload.size,
        head: await readHead(data),
        async moveTo(dest) {
          await move(data, dest);
          await rm(`${data}.json`, { force: true });
        },
      };
    },

    sweep,

    startSweeping() {
      const run = () =>
        void sweep().catch((err) => console.error('Could not remove abandoned uploads:', err));
      run();
      const timer = setInterval(run, SWEEP_EVERY_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
