/** The built app, its SPA fallback and cache headers, uploads, and JSON 404s under /api. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveUpload } from '../../../server/uploads/store';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let staticDir: string;
let cookie: string;
const INDEX = '<!doctype html><title>Admin app</title>';

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'static-'));
  await mkdir(join(staticDir, 'assets'));
  await writeFile(join(staticDir, 'index.html'), INDEX);
  await writeFile(join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1);');
  server = await startTestServer({ staticDir });
  cookie = await signIn(server.apiRoot);
});
afterAll(async () => {
  await server.close();
  await rm(staticDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });

describe('static app', () => {
  it('serves index.html for client routes such as /updateclass/MTI=', async () => {
    for (const path of ['/', '/updateclass/MTI=', '/classes']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves sw.js revalidated and hashed assets cached for good', async () => {
    const sw = await get('/sw.js');
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const asset = await get('/assets/app-abc123.js');
    expect(await asset.text()).toBe('console.log(1);');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/app-old999.js')).status).toBe(404);
  });

  it('never answers an /api path with the app', async () => {
    const reply = await api(server.apiRoot, cookie).get('Masterfilter/Nothing/here.php');
    expect(reply).toMatchObject({ status: 404, body: { success: false, message: 'Not found' } });
    expect(reply.headers.get('content-type')).toMatch(/application\/json/);
    const post = await api(server.apiRoot, cookie).post('Masterfilter/Nothing/here.php', {});
    expect(post).toMatchObject({ status: 404, body: { success: false } });
  });
});

describe('uploads', () => {
  it('serves a stored file with its content type', async () => {
    const name = await saveUpload(server.storage, 'book_cover', new TextEncoder().encode('png bytes'), 'png');
    expect(name).toMatch(/^[0-9]+_[0-9a-f]{16}\.png$/);
    const res = await get(`/api/uploads/book_cover/${name}`, { Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('png bytes');
  });

  it('refuses folders off the list, traversal and missing files with a JSON 404', async () => {
    await writeFile(join(server.dataDir, 'secret.txt'), 'secret');
    for (const path of [
      '/api/uploads/private/x.png',
      '/api/uploads/book_cover/..%2F..%2Fsecret.txt',
      '/api/uploads/book_cover/%2e%2e',
      '/api/uploads/../secret.txt',
      '/api/uploads/book_cover/missing.png',
    ]) {
      const res = await get(path, { Cookie: cookie });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('secret');
    }
  });
});
