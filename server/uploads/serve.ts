/**
 * GET /api/uploads/{folder}/{name}: serves stored files. Content folders are public, as on the
 * legacy server, because the publisher's student-facing apps load covers, pages and media
 * from there without a session; people's pictures (teachers, students) need one. So the
 * public route is registered before the session check and hands every other folder on to it;
 * the private route comes after it.
 *
 * The file comes from the storage (a local folder or a bucket, server/storage) and is streamed
 * as it is read, with what Hono's serveStatic gave when files were only local: the content
 * type from the extension (a stored name's extension is that of the detected kind),
 * Last-Modified, Range requests (video seeking: 206, or 416 past the end) and HEAD. Every
 * reply is defused: nosniff, a sandboxing Content-Security-Policy (an upload opened as a page
 * can run nothing and reach nothing), and files that are not images are downloads. A link may
 * ask for the name the file had on the administrator's device (`?name=`, as the app's links do:
 * src/contract/original-file-name.ts); it only names the download, cleaned like a stored
 * original and encoded (RFC 6266), so it can neither break the header nor change what is served.
 */
import type { Context, Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { cleanOriginalName, ORIGINAL_NAME_PARAM } from '../../src/contract/original-file-name';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { isPublicUploadFolder, isSafeFileName, isUploadFolder, type UploadFolder } from '../storage/folders';
import type { FileStorage } from '../storage/types';
import { IMAGE_TYPES } from './sniff';

export const UPLOAD_CSP = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'";

const isImage = (name: string) => IMAGE_TYPES.includes(name.slice(name.lastIndexOf('.') + 1).toLowerCase());

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<the name>`: old clients read the
 * first, every current one the second.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return fallback === name
    ? `${type}; filename="${name}"`
    : `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The download's name: the one the link asks for, ending in the stored file's extension (that
 * of its checked content), so a name cannot make a device open the file as something else.
 */
function downloadName(c: Context, stored: string): string {
  const asked = cleanOriginalName(c.req.query(ORIGINAL_NAME_PARAM));
  if (!asked) return stored;
  const ext = stored.slice(stored.lastIndexOf('.'));
  return asked.toLowerCase().endsWith(ext.toLowerCase()) ? asked : `${asked}${ext}`;
}

function defuse(c: Context, folder: UploadFolder, name: string): void {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', UPLOAD_CSP);
  c.header('Cache-Control', isPublicUploadFolder(folder) ? 'public, no-cache' : 'private, no-cache');
  const named = downloadName(c, name);
  // A PDF or an HTML-looking file opened from a link must not render in our origin's window.
  if (!isImage(name)) c.header('Content-Disposition', contentDisposition('attachment', named));
  else if (named !== name) c.header('Content-Disposition', contentDisposition('inline', named));
}

const params = (c: Context) => ({ folder: c.req.param('folder') ?? '', name: c.req.param('name') ?? '' });

/** A Range header's first range, resolved against the size; null when it cannot be served. */
export function byteRange(header: string, size: number): { start: number; end: number } | null {
  const match = /^(?:bytes=)?(?!-$)(\d*)-(\d*)$/.exec(header);
  const [first, last] = match ? [match[1], match[2]] : ['0', ''];
  if (size === 0) return null;
  if (first === '') {
    const length = Number(last);
    return length === 0 ? null : { start: Math.max(size - length, 0), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start >= size || start > end ? null : { start, end };
}

function uploadsRoute(storage: FileStorage, apiPrefix: string) {
  return {
    path: `${apiPrefix}/uploads/:folder/:name`,
    /** The file, or a JSON 404; the caller has checked folder and name. */
    async send(c: Context<AppEnv>) {
      const { folder, name } = params(c) as { folder: UploadFolder; name: string };
      const file = await storage.open(folder, name);
      if (!file) return fail(c, 404, TEXT.notFound);
      c.header('Content-Type', getMimeType(name) ?? 'application/octet-stream');
      c.header('Last-Modified', file.modified.toUTCString());
      defuse(c, folder, name);
      const range = c.req.header('Range');
      if (c.req.method === 'HEAD' || !range) {
        c.header('Content-Length', String(file.size));
        return c.req.method === 'HEAD' ? c.body(null, 200) : c.body(await file.stream(), 200);
      }
      c.header('Accept-Ranges', 'bytes');
      const wanted = byteRange(range, file.size);
      if (!wanted) {
        c.header('Content-Range', `bytes */${file.size}`);
        return c.body(null, 416);
      }
      c.header('Content-Length', String(wanted.end - wanted.start + 1));
      c.header('Content-Range', `bytes ${wanted.start}-${wanted.end}/${file.size}`);
      return c.body(await file.stream(wanted), 206);
    },
  };
}

/** Content folders, without a session: registered BEFORE the session check. */
export function registerPublicUploadRoutes(app: Hono<AppEnv>, storage: FileStorage, apiPrefix: string): void {
  const route = uploadsRoute(storage, apiPrefix);
  app.get(route.path, async (c, next) => {
    const { folder, name } = params(c);
    // Anything else (private folders, unknown ones, odd names) goes through the session check.
    if (!isUploadFolder(folder) || !isPublicUploadFolder(folder) || !isSafeFileName(name)) return next();
    return route.send(c);
  });
}

/** People's pictures: registered AFTER the session check. */
export function registerPrivateUploadRoutes(
  app: Hono<AppEnv>,
  storage: FileStorage,
  apiPrefix: string,
): void {
  const route = uploadsRoute(storage, apiPrefix);
  app.get(route.path, async (c) => {
    const { folder, name } = params(c);
    // The whitelist and the name check rule out traversal before the disk is touched.
    if (!isUploadFolder(folder) || !isSafeFileName(name)) return fail(c, 404, TEXT.notFound);
    return route.send(c);
  });
}
