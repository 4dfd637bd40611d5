/**
 * Delivery: static files and JSON go out brotli- or gzip-compressed when the client
 * accepts it, hashed assets are cached for good, index.html, sw.js and the manifest are
 * revalidated. Requests go through node:http, which (unlike fetch) shows the bytes as sent.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../../server/http/compress';
import { chapterEntity } from '../../../src/contract/entities';
import { signIn, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let staticDir: string;
let cookie: string;
const script = `console.log(${JSON.stringify('a fairly repetitive line of script. '.repeat(200))});\n`;
const INDEX = `<!doctype html><title>App</title>${'<meta name="x" content="padding">'.repeat(60)}`;

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'static-'));
  await mkdir(join(staticDir, 'assets'));
  await mkdir(join(staticDir, 'icons'));
  await writeFile(join(staticDir, 'index.html'), INDEX);
  await writeFile(join(staticDir, 'sw.js'), script);
  await writeFile(join(staticDir, 'manifest.webmanifest'), JSON.stringify({ name: 'x'.repeat(2000) }));
  await writeFile(join(staticDir, 'assets', 'index-abc123.js'), script);
  await writeFile(join(staticDir, 'icons', 'icon.png'), Buffer.alloc(4096, 7));
  server = await startTestServer({ staticDir, seedDemo: true });
  cookie = await signIn(server.apiRoot);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(staticDir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  wire: Buffer;
  /** Decoded per Content-Encoding. */
  text: string;
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = get(`${server.url}${path}`, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const decode =
          wire.length > 0 && (enc === 'br' ? brotliDecompressSync : enc === 'gzip' ? gunzipSync : null);
        const plain = decode ? decode(wire) : wire;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, text: plain.toString('utf8') });
      });
    });
    req.on('error', reject);
  });
}

describe('choosing the encoding', () => {
  it('prefers brotli, then gzip, honours q=0 and *', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('static files', () => {
  it('go out brotli- or gzip-compressed as the client accepts, identical once decoded', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw('/assets/index-abc123.js', { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(Number(res.headers['content-length'])).toBe(res.wire.length);
      expect(res.wire.length).toBeLessThan(script.length / 10);
      expect(res.text).toBe(script);
    }
    const plain = await raw('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
  });

  it('cache hashed assets for a year and revalidate index.html, sw.js and the manifest', async () => {
    const br = { 'Accept-Encoding': 'br' };
    expect((await raw('/assets/index-abc123.js', br)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    for (const path of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/books/MTI=']) {
      for (const headers of [br, {}]) {
        const res = await raw(path, headers);
        expect(res.status, path).toBe(200);
        expect(res.headers['cache-control'], path).toBe('no-cache');
      }
    }
    const fallback = await raw('/books/MTI=', br);
    expect(fallback.headers['content-encoding']).toBe('br');
    expect(fallback.text).toBe(INDEX);
  });

  it('leave images and Range requests alone', async () => {
    const icon = await raw('/icons/icon.png', { 'Accept-Encoding': 'br' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.wire.length).toBe(4096);
    const part = await raw('/assets/index-abc123.js', { 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.text).toBe(script.slice(0, 10));
  });

  it('answer HEAD with the headers of the compressed reply and no body', async () => {
    const head = await raw('/assets/index-abc123.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.wire.length).toBe(0);
  });
});

describe('JSON replies', () => {
  it('are compressed when large enough and the client accepts it', async () => {
    const path = `/api/${chapterEntity.api.list}?limit=50`;
    const br = await raw(path, { Cookie: cookie, 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const plain = await raw(path, { Cookie: cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.wire.length).toBeGreaterThan(1024);
    expect(br.wire.length).toBeLessThan(plain.wire.length / 2);
    expect(JSON.parse(br.text)).toEqual(JSON.parse(plain.text));
    const gzip = await raw(path, { Cookie: cookie, 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gzip.text)).toEqual(JSON.parse(plain.text));
  });

  it('are sent as they are when small', async () => {
    const res = await raw('/api/Nope/x.php', { Cookie: cookie, 'Accept-Encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.text)).toEqual({ success: false, message: 'Not found' });
  });
});
