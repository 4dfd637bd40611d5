/**
 * Resumable uploads (tus at /api/uploads/resumable/) and records that name a finished one
 * (`tus:<id>` in a file field): the session check, ownership between administrators, the
 * same content and size checks as a file sent inline, the move into the upload folder, and
 * removal when the record's write is refused or rolled back.
 *
 * Also the limits: no deferred length, and a cap on what one administrator's
 * unfinished uploads may add up to.
 *
 * Runs the real app over HTTP on an in-memory database with three administrators (the shared
 * test server has one), and a transaction executor that can be made to fail on demand; its
 * files in a local folder, or in a bucket in the 's3' project (helpers/storage.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app/create-app';
import { ensureAdmin } from '../../../server/auth/admin';
import { type Database, openDatabase } from '../../../server/db';
import { seedDemo } from '../../../server/seed/demo';
import type { FileStorage } from '../../../server/storage';
import {
  ABANDONED_AFTER_MS,
  openResumableUploads,
  type ResumableUploads,
} from '../../../server/uploads/resumable';
import { chapterEntity } from '../../../src/contract/entities';
import { RESUMABLE_PATH } from '../../../src/contract/resumable';
import { type ApiReply, api, signIn } from '../../helpers/server';
import { openTestStorage } from '../../helpers/storage';
import { chapterFields, form, MB, sampleFile, storedBytes, storedFiles } from '../support/files';

const OTHER = { username: 'other', password: 'other-secret' };
/** Creates uploads against the pending limit only. */
const THIRD = { username: 'third', password: 'third-secret' };
const PENDING_LIMIT_MB = 64;
const C = chapterEntity.api;
const chapter = chapterFields('Resumable chapter');

let db: Database;
let failOn: RegExp | null = null;
let dataDir: string;
let storage: FileStorage;
let resumable: ResumableUploads;
let close: () => Promise<void>;
let url: string;
let apiRoot: string;
let cookie: string;
let otherCookie: string;
let thirdCookie: string;

beforeAll(async () => {
  const real = await openDatabase({ dataDir: 'memory://' });
  // The same database, but statements matching `failOn` throw inside write transactions.
  db = {
    ...real,
    tx: (fn) =>
      real.tx((q) =>
        fn((sql, params) => {
          if (failOn?.test(sql)) throw new Error('injected failure');
          return q(sql, params);
        }),
      ),
  };
  await real.tx(seedDemo);
  await ensureAdmin(real.query, 'admin', 'admin123');
  await ensureAdmin(real.query, OTHER.username, OTHER.password);
  await ensureAdmin(real.query, THIRD.username, THIRD.password);
  dataDir = await mkdtemp(join(tmpdir(), 'resumable-'));
  const opened = await openTestStorage(dataDir);
  storage = opened.storage;
  resumable = openResumableUploads({ storage, db, pendingLimitBytes: PENDING_LIMIT_MB * MB });
  const app = createApp({ db, storage, resumable });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((listening) => server.once('listening', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  apiRoot = `${url}/api`;
  cookie = await signIn(apiRoot);
  otherCookie = await signIn(apiRoot, OTHER.username, OTHER.password);
  thirdCookie = await signIn(apiRoot, THIRD.username, THIRD.password);
  close = async () => {
    await new Promise((closed) => server.close(closed));
    await real.close();
    await opened.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => close?.());

const TUS = { 'Tus-Resumable': '1.0.0' };

async function create(size: number, as = cookie, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${apiRoot}/${RESUMABLE_PATH}/`, {
    method: 'POST',
    headers: { ...TUS, Cookie: as, 'Upload-Length': String(size), ...headers },
  });
}

/** Creates an upload and returns its absolute URL and id. */
async function created(size: number, as = cookie): Promise<{ at: string; id: string }> {
  const res = await create(size, as);
  expect(res.status).toBe(201);
  const at = new URL(res.headers.get('Location')!, url).href;
  return { at, id: at.split('/').at(-1)! };
}

const patch = (at: string, offset: number, bytes: Uint8Array<ArrayBuffer>, as = cookie) =>
  fetch(at, {
    method: 'PATCH',
    headers: {
      ...TUS,
      Cookie: as,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: bytes,
  });

const head = (at: string, as = cookie) => fetch(at, { method: 'HEAD', headers: { ...TUS, Cookie: as } });

/** A finished upload of `bytes` (in two chunks), returning its reference. */
async function uploaded(bytes: Uint8Array<ArrayBuffer>, as = cookie): Promise<string> {
  const { at, id } = await created(bytes.length, as);
  const half = Math.floor(bytes.length / 2);
  expect((await patch(at, 0, bytes.subarray(0, half), as)).status).toBe(204);
  const done = await patch(at, half, bytes.subarray(half), as);
  expect(done.status).toBe(204);
  expect(done.headers.get('Upload-Offset')).toBe(String(bytes.length));
  return `tus:${id}`;
}

const bytesOf = async (file: File) => new Uint8Array(await file.arrayBuffer());
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** The ids of the uploads in the storage. */
const tusFiles = async () => (await storage.tus.list()).map((u) => u.id).sort();
const media = () => storedFiles(storage, 'chapter_content');
const addChapter = (fields: Record<string, string | File>, as = cookie): Promise<ApiReply> =>
  api(apiRoot, as).post(C.add, form({ ...chapter, ...fields }));

describe('the tus endpoint', () => {
  it('answers a request without a session with a JSON 401', async () => {
    const res = await fetch(`${apiRoot}/${RESUMABLE_PATH}/`, {
      method: 'POST',
      headers: { ...TUS, 'Upload-Length': '10' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false });
  });

  it('takes an upload in chunks and tells the offset it has', async () => {
    const { at } = await created(1000);
    expect(at).toContain(`/api/${RESUMABLE_PATH}/`);
    expect((await patch(at, 0, new Uint8Array(400))).status).toBe(204);
    const res = await head(at);
    expect(res.status).toBe(200);
    expect(res.headers.get('Upload-Offset')).toBe('400');
    expect(res.headers.get('Upload-Length')).toBe('1000');
  });

  it('keeps the bytes of a chunk whose connection dropped half-way', async () => {
    const { at } = await created(2 * MB);
    const target = new URL(at);
    const socket = net.connect(Number(target.port), target.hostname);
    await new Promise((connected) => socket.once('connect', connected));
    socket.resume(); // whatever the server answers, read it so that the socket can close
    const lines = [
      `PATCH ${target.pathname} HTTP/1.1`,
      `Host: ${target.host}`,
      `Cookie: ${cookie}`,
      'Tus-Resumable: 1.0.0',
      'Upload-Offset: 0',
      'Content-Type: application/offset+octet-stream',
      `Content-Length: ${2 * MB}`,
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    // Half the body, then the client is gone.
    await new Promise<void>((written) => socket.end(Buffer.alloc(MB, 7), () => written()));
    await new Promise((closed) => socket.once('close', closed));
    // HEAD waits for the cut PATCH to let go of the upload, then tells what it kept: all but
    // what was still in Node's buffers (tens of KB; failing the body instead loses a quarter).
    const offset = Number((await head(at)).headers.get('Upload-Offset'));
    expect(offset).toBeGreaterThan(0.9 * MB);
    expect(offset).toBeLessThanOrEqual(MB);
  });

  it('refuses a wrong offset, and an upload over 1 GB, as JSON', async () => {
    const { at } = await created(1000);
    const wrong = await patch(at, 10, new Uint8Array(10));
    expect(wrong.status).toBe(409);
    expect(await wrong.json()).toMatchObject({ success: false, message: expect.any(String) });
    const huge = await create(1024 * 1024 * 1024 + 1);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ success: false });
  });

  it('refuses a deferred length with a JSON 400 (the app always knows the size)', async () => {
    const res = await fetch(`${apiRoot}/${RESUMABLE_PATH}/`, {
      method: 'POST',
      headers: { ...TUS, Cookie: cookie, 'Upload-Defer-Length': '1' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      message: 'Upload-Defer-Length is not accepted: declare the size in Upload-Length',
    });
    const options = await fetch(`${apiRoot}/${RESUMABLE_PATH}/`, {
      method: 'OPTIONS',
      headers: { ...TUS, Cookie: cookie },
    });
    expect(options.headers.get('Tus-Extension')).not.toContain('creation-defer-length');
  });

  it("holds one administrator's unfinished uploads to the limit, counted on their declared length", async () => {
    const first = await created(40 * MB, thirdCookie);
    const over = await create(30 * MB, thirdCookie);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      success: false,
      message: `Unfinished uploads may hold at most ${PENDING_LIMIT_MB} MB per administrator: finish or discard earlier uploads first`,
    });
    // Another administrator has a limit of their own.
    const { at: others } = await created(30 * MB, otherCookie);
    // Discarding (tus termination) gives the bytes back.
    const removed = await fetch(first.at, { method: 'DELETE', headers: { ...TUS, Cookie: thirdCookie } });
    expect(removed.status).toBe(204);
    const { at } = await created(30 * MB, thirdCookie);
    for (const upload of [at, others])
      await fetch(upload, {
        method: 'DELETE',
        headers: { ...TUS, Cookie: upload === at ? thirdCookie : otherCookie },
      });
  });

  it("keeps one administrator away from another's upload", async () => {
    const { at } = await created(100);
    expect((await head(at, otherCookie)).status).toBe(404);
    const appended = await patch(at, 0, new Uint8Array(100), otherCookie);
    expect(appended.status).toBe(404);
    expect(await appended.json()).toEqual({ success: false, message: 'Upload not found' });
    expect((await head(at)).headers.get('Upload-Offset')).toBe('0');
  });
});

describe('a record naming a finished upload', () => {
  it('stores the upload as the file, moved into the upload folder, byte for byte', async () => {
    const bytes = await bytesOf(sampleFile('png', 'big.png', 6 * MB));
    for (let i = 8; i < bytes.length; i += 4099) bytes[i] = i % 251;
    const reference = await uploaded(bytes);
    const before = await media();
    const reply = await addChapter({ chapterImage: reference });
    expect(reply).toMatchObject({
      status: 200,
      body: { success: true, message: 'Chapter added successfully' },
    });
    const row = (await api(apiRoot, cookie).get(C.get, { chapter_id: reply.body.id })).body.chapter;
    expect(row.chapter_image).toMatch(/^[0-9]+_[0-9a-f]{16}\.png$/);
    expect(await media()).toEqual([...before, row.chapter_image].sort());
    const stored = await storedBytes(storage, 'chapter_content', row.chapter_image);
    expect(sha256(stored!)).toBe(sha256(bytes));
    // Taken: neither the data nor its info file is left, and it cannot be named again.
    expect((await tusFiles()).filter((f) => f.startsWith(reference.slice(4)))).toEqual([]);
    expect(await addChapter({ chapterImage: reference })).toMatchObject({
      status: 400,
      body: { success: false, message: 'Chapter Image names an upload that does not exist' },
    });
  });

  it('keeps the name the file had on the device, from the upload’s filename metadata', async () => {
    const bytes = await bytesOf(sampleFile('png', 'map.png', 2 * MB));
    const encoded = Buffer.from('Map of India (2).png').toString('base64');
    const res = await create(bytes.length, cookie, { 'Upload-Metadata': `filename ${encoded}` });
    expect(res.status).toBe(201);
    const at = new URL(res.headers.get('Location')!, url).href;
    expect((await patch(at, 0, bytes)).status).toBe(204);
    const reply = await addChapter({ chapterImage: `tus:${at.split('/').at(-1)}` });
    expect(reply.body).toMatchObject({ success: true });
    const row = (await api(apiRoot, cookie).get(C.get, { chapter_id: reply.body.id })).body.chapter;
    expect(row.chapter_image).toMatch(/^[0-9]+_[0-9a-f]{16}\.png$/);
    expect(row.chapter_image_name).toBe('Map of India (2).png');
  });

  it('works on update too, within the update limit', async () => {
    const added = await addChapter({ chapterImage: 'null' });
    const reference = await uploaded(await bytesOf(sampleFile('pdf', 'notes.pdf', MB)));
    const reply = await api(apiRoot, cookie).post(
      `${C.update}?chapter_id=${added.body.id}`,
      form({ ...chapter, chapterImage: reference }),
    );
    expect(reply.body).toMatchObject({ success: true, message: 'Chapter updated successfully' });
    const row = (await api(apiRoot, cookie).get(C.get, { chapter_id: added.body.id })).body.chapter;
    expect(row.chapter_image).toMatch(/\.pdf$/);
  });

  describe('refusals write nothing and leave the upload as it was', () => {
    const cases: [string, () => Promise<string>, string][] = [
      [
        "another administrator's upload",
        async () => uploaded(await bytesOf(sampleFile('png', 'x.png', 1000)), otherCookie),
        'Chapter Image names an upload that does not exist',
      ],
      [
        'an unknown upload',
        async () => 'tus:1-0123456789abcdef0123456789abcdef',
        'Chapter Image names an upload that does not exist',
      ],
      [
        'a malformed reference',
        async () => 'tus:../../etc/passwd',
        'Chapter Image names an upload that does not exist',
      ],
      [
        'an unfinished upload',
        async () => {
          const { at, id } = await created(1000);
          await patch(at, 0, new Uint8Array(300));
          return `tus:${id}`;
        },
        'Chapter Image names an upload that is not finished (300 of 1000 bytes)',
      ],
      [
        'content that is not of the rule (text)',
        async () => uploaded(await bytesOf(sampleFile('text', 'notes.pdf', 1000))),
        'Chapter Image must be a jpg, jpeg, png, gif or pdf file',
      ],
      [
        'an upload larger than the rule (10 MB + 1 byte)',
        async () => uploaded(await bytesOf(sampleFile('pdf', 'big.pdf', 10 * MB + 1))),
        'Chapter Image is larger than 10 MB',
      ],
    ];
    it.each(cases)('%s', async (_name, reference, message) => {
      const ref = await reference();
      const before = { media: await media(), tus: await tusFiles() };
      expect(await addChapter({ chapterImage: ref })).toMatchObject({
        status: 400,
        body: { success: false, message },
      });
      expect({ media: await media(), tus: await tusFiles() }).toEqual(before);
    });

    it('a valid upload with an unknown parent stays to be named again', async () => {
      const reference = await uploaded(await bytesOf(sampleFile('png', 'ok.png', 1000)));
      const refused = await addChapter({ chapterImage: reference, selectedUnit: '999' });
      expect(refused).toMatchObject({ status: 400, body: { message: 'Unit does not exist' } });
      expect((await addChapter({ chapterImage: reference })).body.success).toBe(true);
    });
  });

  it('a write that fails after the move removes the moved file (rolled back, 500)', async () => {
    const reference = await uploaded(await bytesOf(sampleFile('png', 'ok.png', 2000)));
    const before = await media();
    failOn = /INSERT INTO "chapters"/;
    const quiet = console.error;
    console.error = () => {};
    try {
      const reply = await addChapter({ chapterImage: reference, chapterName: 'Rolled back' });
      expect(reply).toMatchObject({ status: 500, body: { success: false } });
    } finally {
      failOn = null;
      console.error = quiet;
    }
    expect(await media()).toEqual(before);
    expect((await tusFiles()).filter((f) => f.startsWith(reference.slice(4)))).toEqual([]);
  });

  it('is refused as "must be a file" by a server in legacy mode (no endpoint there)', async () => {
    const legacyDb = await openDatabase({ dataDir: 'memory://' });
    await legacyDb.tx(seedDemo);
    await ensureAdmin(legacyDb.query, 'admin', 'admin123');
    const app = createApp({ db: legacyDb, legacy: true, storage, resumable });
    try {
      const login = await app.request('/api/Admin_access/login.php', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin123' }),
      });
      const session = login.headers.get('set-cookie')!.split(';')[0];
      const creation = await app.request(`/api/${RESUMABLE_PATH}/`, {
        method: 'POST',
        headers: { ...TUS, Cookie: session, 'Upload-Length': '10' },
      });
      expect(creation.status).toBe(404);
      const reply = await app.request(`/api/${C.add}`, {
        method: 'POST',
        headers: { Cookie: session },
        body: form({ ...chapter, chapterImage: 'tus:1-0123456789abcdef0123456789abcdef' }),
      });
      expect(reply.status).toBe(400);
      expect(await reply.json()).toEqual({ success: false, message: 'Chapter Image must be a file' });
    } finally {
      await legacyDb.close();
    }
    // It opens a database of its own, like a hook.
  }, 120_000);
});

describe('abandoned uploads', () => {
  it('are removed once untouched for 24 hours, finished or not; newer ones stay', async () => {
    const { id: fresh } = await created(100);
    const later = Date.now() + ABANDONED_AFTER_MS + 60_000;
    expect(await tusFiles()).toContain(fresh);
    expect(await resumable.sweep(Date.now())).toBe(0);
    expect(await tusFiles()).toContain(fresh);
    const removed = await resumable.sweep(later);
    expect(removed).toBeGreaterThan(0);
    expect(await tusFiles()).toEqual([]);
  });
});
