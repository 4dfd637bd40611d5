/**
 * GET /api/uploads/{folder}/{name}: serves stored files. Content folders are public, as on the
 * legacy server, because the publisher's student-facing apps load covers, pages and media
 * from there without a session; people's pictures (teachers, students) need one. So the
 * public route is registered before the session check and hands every other folder on to it;
 * the private route comes after it.
 *
 * Hono's serveStatic does the serving, which brings Range requests (video seeking) and the
 * content type from the extension (a stored name's extension is that of the detected kind).
 * Every reply is defused: nosniff, a sandboxing Content-Security-Policy (an upload opened as
 * a page can run nothing and reach nothing), and files that are not images are downloads.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { isPublicUploadFolder, isSafeFileName, isUploadFolder, type UploadFolder } from './folders';
import { IMAGE_TYPES } from './sniff';

export const UPLOAD_CSP = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'";

const isImage = (name: string) => IMAGE_TYPES.includes(name.slice(name.lastIndexOf('.') + 1).toLowerCase());

function defuse(c: Context, folder: UploadFolder, name: string): void {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', UPLOAD_CSP);
  c.header('Cache-Control', isPublicUploadFolder(folder) ? 'public, no-cache' : 'private, no-cache');
  // A PDF or an HTML-looking file opened from a link must not render in our origin's window.
  if (!isImage(name)) c.header('Content-Disposition', `attachment; filename="${name}"`);
}

const params = (c: Context) => ({ folder: c.req.param('folder') ?? '', name: c.req.param('name') ?? '' });

function uploadsRoute(uploadsDir: string, apiPrefix: string) {
  const prefix = `${apiPrefix}/uploads`;
  const serve = serveStatic<AppEnv>({
    root: uploadsDir,
    rewriteRequestPath: (path) => path.slice(prefix.length),
    onFound: (_path, c) => {
      const { folder, name } = params(c);
      defuse(c, folder as UploadFolder, name);
    },
  });
  const noFile = async () => {};
  return {
    path: `${prefix}/:folder/:name`,
    /** The file, or a JSON 404; the caller has checked folder and name. */
    async send(c: Context<AppEnv>) {
      return (await serve(c, noFile)) ?? fail(c, 404, TEXT.notFound);
    },
  };
}

/** Content folders, without a session: registered BEFORE the session check. */
export function registerPublicUploadRoutes(app: Hono<AppEnv>, uploadsDir: string, apiPrefix: string): void {
  const route = uploadsRoute(uploadsDir, apiPrefix);
  app.get(route.path, async (c, next) => {
    const { folder, name } = params(c);
    // Anything else (private folders, unknown ones, odd names) goes through the session check.
    if (!isUploadFolder(folder) || !isPublicUploadFolder(folder) || !isSafeFileName(name)) return next();
    return route.send(c);
  });
}

/** People's pictures: registered AFTER the session check. */
export function registerPrivateUploadRoutes(app: Hono<AppEnv>, uploadsDir: string, apiPrefix: string): void {
  const route = uploadsRoute(uploadsDir, apiPrefix);
  app.get(route.path, async (c) => {
    const { folder, name } = params(c);
    // The whitelist and the name check rule out traversal before the disk is touched.
    if (!isUploadFolder(folder) || !isSafeFileName(name)) return fail(c, 404, TEXT.notFound);
    return route.send(c);
  });
}
