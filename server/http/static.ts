/**
 * The built PWA: files from staticDir, and index.html for every other GET outside /api so
 * that client routes such as /updateclass/MTI= load the app. index.html, sw.js and the
 * manifest must be revalidated on every load, or an update of the app would never be seen;
 * Vite's /assets/ files carry a content hash in their names and can be cached for good.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import type { AppEnv } from './env';

const NO_CACHE = new Set(['/index.html', '/sw.js', '/manifest.webmanifest']);

function cacheHeaders(path: string, c: Context): void {
  if (c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  else if (NO_CACHE.has(c.req.path) || path.endsWith('index.html')) c.header('Cache-Control', 'no-cache');
}

export function registerStatic(app: Hono<AppEnv>, staticDir: string | undefined, apiPrefix: string): void {
  if (!staticDir || !existsSync(staticDir)) return;
  const root = resolve(staticDir);
  const isApi = (path: string) => path === apiPrefix || path.startsWith(`${apiPrefix}/`);

  const files = serveStatic<AppEnv>({ root, onFound: cacheHeaders });
  app.use('*', async (c, next) => (isApi(c.req.path) ? next() : files(c, next)));

  app.get('*', async (c, next) => {
    // A missing hashed asset (an old build's chunk) must be a 404, not HTML under a .js name.
    if (isApi(c.req.path) || c.req.path.startsWith('/assets/')) return next();
    const html = await readFile(join(root, 'index.html'), 'utf8').catch(() => null);
    if (html === null) return next();
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  });
}
