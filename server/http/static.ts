/**
 * The built PWA: files from staticDir, and index.html for every other GET outside /api so
 * that client routes such as /updateclass/MTI= load the app.
 *
 * Caching: Vite's /assets/ files carry a content hash in their names and are cached for a
 * year, immutable. index.html, sw.js and the manifest are `no-cache` (stored, but checked
 * with the server before every use), or an update of the app would never be seen.
 *
 * Compression: text files (HTML, JS, CSS, JSON, SVG, the manifest) go out brotli- or
 * gzip-compressed when the client accepts it. Each is compressed once, at the best level, on
 * its first request, and kept in memory (the build is about 1 MB) until the file changes.
 * Everything else, and any Range request, is served as it is by serveStatic.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding, compressBytes, type Encoding, MIN_COMPRESS_BYTES } from './compress';
import type { AppEnv } from './env';

const NO_CACHE = new Set(['/index.html', '/sw.js', '/manifest.webmanifest']);
const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheControl(urlPath: string, filePath: string): string | undefined {
  if (urlPath.startsWith('/assets/')) return IMMUTABLE;
  if (NO_CACHE.has(urlPath) || filePath.endsWith('index.html')) return 'no-cache';
  return undefined;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json)|image\/svg\+xml)/;
/** Larger files are streamed as they are rather than held in memory. */
const MAX_CACHED_BYTES = 8 * 1024 * 1024;

/** Compressed copies, by file path, encoding, size and modification time. */
const compressedCache = new Map<string, Promise<Buffer>>();

async function compressedFile(path: string, encoding: Encoding, size: number, mtimeMs: number) {
  const key = `${path}\0${encoding}\0${size}\0${mtimeMs}`;
  let entry = compressedCache.get(key);
  if (!entry) {
    // Concurrent first requests share one compression; a failed one is not kept.
    entry = readFile(path).then((data) => compressBytes(data, encoding, true));
    entry.catch(() => compressedCache.delete(key));
    for (const old of compressedCache.keys())
      if (old.startsWith(`${path}\0${encoding}\0`)) compressedCache.delete(old);
    compressedCache.set(key, entry);
  }
  return entry;
}

/**
 * The compressed reply for `filePath` (an absolute path inside root), or null when it is to
 * be served as it is.
 */
async function sendCompressed(
  c: Context<AppEnv>,
  filePath: string,
  urlPath: string,
): Promise<Response | null> {
  const type = getMimeType(filePath);
  if (!type || !COMPRESSIBLE.test(type) || c.req.header('Range')) return null;
  const info = await stat(filePath).catch(() => null);
  if (!info?.isFile() || info.size < MIN_COMPRESS_BYTES || info.size > MAX_CACHED_BYTES) return null;
  c.header('Vary', 'Accept-Encoding');
  const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return null;
  const body = await compressedFile(filePath, encoding, info.size, info.mtimeMs);
  const cache = cacheControl(urlPath, filePath);
  if (cache) c.header('Cache-Control', cache);
  c.header('Content-Type', type);
  c.header('Content-Encoding', encoding);
  c.header('Content-Length', String(body.byteLength));
  c.header('Last-Modified', info.mtime.toUTCString());
  return c.req.method === 'HEAD' ? c.body(null, 200) : c.body(new Uint8Array(body), 200);
}

/** The file a URL path names inside root, or null for anything that could leave it. */
function fileIn(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || /(^|\/)\.\.?(\/|$)/.test(decoded)) return null;
  const path = resolve(root, `.${decoded}`);
  return path.startsWith(root + sep) ? path : null;
}

export function registerStatic(app: Hono<AppEnv>, staticDir: string | undefined, apiPrefix: string): void {
  if (!staticDir || !existsSync(staticDir)) return;
  const root = resolve(staticDir);
  const isApi = (path: string) => path === apiPrefix || path.startsWith(`${apiPrefix}/`);

  const files = serveStatic<AppEnv>({
    root,
    onFound: (path, c) => {
      const cache = cacheControl(c.req.path, path);
      if (cache) c.header('Cache-Control', cache);
    },
  });
  app.use('*', async (c, next) => {
    if (isApi(c.req.path) || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    const path = c.req.path === '/' ? join(root, 'index.html') : fileIn(root, c.req.path);
    const compressed = path ? await sendCompressed(c, path, c.req.path) : null;
    return compressed ?? files(c, next);
  });

  app.get('*', async (c, next) => {
    // A missing hashed asset (an old build's chunk) must be a 404, not HTML under a .js name.
    if (isApi(c.req.path) || c.req.path.startsWith('/assets/')) return next();
    const index = join(root, 'index.html');
    const compressed = await sendCompressed(c, index, '/index.html');
    if (compressed) return compressed;
    const html = await readFile(index, 'utf8').catch(() => null);
    if (html === null) return next();
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  });
}
