/**
 * GET /api/uploads/{folder}/{name}: serves stored files (behind the session check, like every
 * /api path). Hono's serveStatic does the serving, which brings Range requests (video seeking)
 * and the content type from the extension.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { isSafeFileName, isUploadFolder } from './folders';

export function registerUploadRoutes(app: Hono<AppEnv>, uploadsDir: string, apiPrefix: string): void {
  const prefix = `${apiPrefix}/uploads`;
  const serve = serveStatic<AppEnv>({
    root: uploadsDir,
    rewriteRequestPath: (path) => path.slice(prefix.length),
    // Never let a browser reinterpret an upload as another type (e.g. a .txt as HTML).
    onFound: (_path, c) => {
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Cache-Control', 'private, no-cache');
    },
  });

  app.get(`${prefix}/:folder/:name`, async (c, next) => {
    const { folder, name } = c.req.param();
    // The whitelist and the name check rule out traversal before the disk is touched.
    if (!isUploadFolder(folder) || !isSafeFileName(name)) return fail(c, 404, TEXT.notFound);
    return serve(c, next);
  });
}
