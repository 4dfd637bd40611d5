/**
 * Serving uploads: content folders are public, as on the legacy server,
 * for the student-facing apps; teachers' and students' pictures need a session. Every reply
 * is defused (nosniff, a sandboxing CSP) and files that are not images are downloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_UPLOAD_FOLDERS, UPLOAD_FOLDERS, type UploadFolder } from '../../../server/storage/folders';
import { UPLOAD_CSP } from '../../../server/uploads/serve';
import { saveUpload } from '../../../server/uploads/store';
import { signIn, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let cookie: string;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const MP4 = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypmp42'), ...new Array(100).fill(9)]);
const PDF = new TextEncoder().encode('%PDF-1.4 <html><script>alert(1)</script>');

beforeAll(async () => {
  server = await startTestServer();
  cookie = await signIn(server.apiRoot);
}, 120_000);
afterAll(() => server?.close());

const store = (folder: UploadFolder, data: Uint8Array, ext: string) =>
  saveUpload(server.storage, folder, data, ext);
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });

describe('who may read uploads', () => {
  const publicFolders = UPLOAD_FOLDERS.filter((f) => !PRIVATE_UPLOAD_FOLDERS.includes(f));

  it('lists the content folders to come, cms included', () => {
    expect(UPLOAD_FOLDERS).toEqual(
      expect.arrayContaining(['cms', 'school_logo', 'question_image', 'addnworksheets']),
    );
    expect(PRIVATE_UPLOAD_FOLDERS).toEqual(['teachers', 'students']);
  });

  it.each(publicFolders)('anyone reads %s, without a session', async (folder) => {
    const name = await store(folder, PNG, 'png');
    const res = await get(`/api/uploads/${folder}/${name}`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
  });

  it.each(PRIVATE_UPLOAD_FOLDERS)('%s needs a session', async (folder) => {
    const name = await store(folder, PNG, 'png');
    const anonymous = await get(`/api/uploads/${folder}/${name}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ success: false, message: 'Please sign in' });
    const signed = await get(`/api/uploads/${folder}/${name}`, { Cookie: cookie });
    expect(signed.status).toBe(200);
    expect(signed.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('answers a missing public file with a JSON 404, with or without a session', async () => {
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
      const res = await get('/api/uploads/book_cover/missing.png', headers);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: 'Not found' });
    }
  });
});

describe('every upload reply', () => {
  it('is sandboxed and nosniff; an image is shown inline', async () => {
    const name = await store('book_cover', PNG, 'png');
    const res = await get(`/api/uploads/book_cover/${name}`);
    expect(res.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
    expect(UPLOAD_CSP).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBeNull();
  });

  it('makes anything but an image a download', async () => {
    for (const [folder, data, ext] of [
      ['chapter_content', PDF, 'pdf'],
      ['videos', MP4, 'mp4'],
    ] as const) {
      const name = await store(folder, data, ext);
      const res = await get(`/api/uploads/${folder}/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(res.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
    }
  });

  it('names a download by the name a link asks for, encoded, in the extension of its content', async () => {
    const name = await store('chapter_content', PDF, 'pdf');
    const disposition = async (asked: string) =>
      (await get(`/api/uploads/chapter_content/${name}?name=${encodeURIComponent(asked)}`)).headers.get(
        'content-disposition',
      );
    expect(await disposition('Teacher Guide.pdf')).toBe('attachment; filename="Teacher Guide.pdf"');
    // Not ASCII: a plain fallback for old clients, the name itself for the others (RFC 6266).
    expect(await disposition('गाइड (1).PDF')).toBe(
      `attachment; filename="____ (1).PDF"; filename*=UTF-8''%E0%A4%97%E0%A4%BE%E0%A4%87%E0%A4%A1%20%281%29.PDF`,
    );
    // A name cannot break the header, leave its folder or make the file another kind.
    expect(await disposition('a"b\r\nSet-Cookie: x=1.pdf')).toBe(
      'attachment; filename="a_bSet-Cookie: x=1.pdf"; filename*=UTF-8\'\'a%22bSet-Cookie%3A%20x%3D1.pdf',
    );
    expect(await disposition('../../etc/page.html')).toBe('attachment; filename="page.html.pdf"');
    expect(await disposition('')).toBe(`attachment; filename="${name}"`);
    // An image is shown, not downloaded: only its name changes.
    const picture = await store('book_cover', PNG, 'png');
    const shown = await get(`/api/uploads/book_cover/${picture}?name=cover.png`);
    expect(shown.headers.get('content-disposition')).toBe('inline; filename="cover.png"');
    expect(shown.headers.get('content-type')).toBe('image/png');
  });

  it('still serves Range requests (video seeking), defused too', async () => {
    const name = await store('videos', MP4, 'mp4');
    const res = await get(`/api/uploads/videos/${name}`, { Range: 'bytes=4-11' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 4-11/${MP4.length}`);
    expect(await res.text()).toBe('ftypmp42');
    expect(res.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
    expect(res.headers.get('content-encoding')).toBeNull();
  });
});
