/**
 * Compression (brotli or gzip, whichever the client prefers of those it accepts). Static files
 * are compressed once at the best level and kept (server/http/static.ts); JSON replies are
 * compressed on the fly at a fast level here. Uploads are left alone: images, PDFs and media
 * are compressed already, and they are served by range.
 *
 * Not Hono's compress middleware: it offers gzip and deflate only (CompressionStream, which has
 * no brotli on Node 20), and applies its size threshold only to replies with a Content-Length,
 * which JSON replies do not carry.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';

export type Encoding = 'br' | 'gzip';

/** Below this a reply fits in a packet or two either way; compressing only costs time. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * The encoding to use for an Accept-Encoding header: br before gzip, each unless refused with
 * q=0 (`*` stands for any encoding not named).
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = weight ? Number(weight.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepted = (enc: Encoding) =>
    (q.get(enc) ?? (enc === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return null;
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Compresses on zlib's thread pool (the event loop keeps serving). `best` is for files that
 * are compressed once and kept: brotli 11 takes about 0.3 s for the 236 KB entry chunk, and
 * gives 13% less than the fast level 5 that on-the-fly replies use.
 */
export function compressBytes(data: Uint8Array, encoding: Encoding, best: boolean): Promise<Buffer> {
  if (encoding === 'gzip') return gz(data, { level: best ? 9 : 6 });
  return brotli(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
    },
  });
}

/** JSON replies: compressed when large enough and the client accepts it. */
export function compressJson(apiPrefix: string): MiddlewareHandler<AppEnv> {
  const uploads = `${apiPrefix}/uploads/`;
  return async (c, next) => {
    await next();
    if (c.req.path.startsWith(uploads)) return;
    const res = c.res;
    if (!/^application\/json\b/i.test(res.headers.get('Content-Type') ?? '')) return;
    if (res.headers.has('Content-Encoding') || !res.body) return;
    res.headers.append('Vary', 'Accept-Encoding');
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const plain = new Uint8Array(await res.arrayBuffer());
    // Setting c.res copies the old reply's headers onto the new one; a stale length must not be among them.
    res.headers.delete('Content-Length');
    if (plain.byteLength < MIN_COMPRESS_BYTES) {
      c.res = new Response(plain, { status: res.status, headers: res.headers });
      return;
    }
    const body = await compressBytes(plain, encoding, false);
    const headers = new Headers(res.headers);
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(body.byteLength));
    c.res = new Response(new Uint8Array(body), { status: res.status, headers });
  };
}
