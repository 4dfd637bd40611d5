/**
 * Multipart read as it streams in (server/http/multipart.ts): files reach the handlers intact
 * through their temporary files, which are gone once the request is answered, whatever the
 * answer; field values over 1 MB, too many parts and broken bodies are refused with a JSON 400
 * and write nothing.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_BYTES, MAX_PARTS } from '../../../server/http/multipart';
import { chapterEntity } from '../../../src/contract/entities';
import { snapshotServer } from '../../helpers/db-snapshot';
import { signedInSuite, signIn } from '../../helpers/server';
import { chapterFields, form, sampleFile, storedBytes, storedFiles } from '../support/files';

const suite = signedInSuite({ seedDemo: true });
const C = chapterEntity.api;
const chapter = chapterFields('Streamed');

// The server runs in this test's thread: its temporary files go where TMPDIR says, here.
let temp: string;
let previous: string | undefined;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'multipart-test-'));
  previous = process.env.TMPDIR;
  process.env.TMPDIR = temp;
});
afterAll(async () => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  await rm(temp, { recursive: true, force: true });
});

describe('files through temporary files', () => {
  it('a 9 MB chapter image is stored byte for byte, and no temporary file is left', async () => {
    const image = sampleFile('png', 'page.png', 9 * 1024 * 1024);
    const reply = await suite.client.post(C.add, form({ ...chapter, chapterImage: image }));
    expect(reply).toMatchObject({ status: 200, body: { success: true } });
    const [stored] = await storedFiles(suite.server.storage, 'chapter_content');
    const bytes = (await storedBytes(suite.server.storage, 'chapter_content', stored))!;
    const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(hash(bytes)).toBe(hash(new Uint8Array(await image.arrayBuffer())));
    expect(await readdir(temp)).toEqual([]);
  });

  it('a refused file (not of its kind) leaves no temporary file either', async () => {
    const before = await snapshotServer(suite.server);
    const reply = await suite.client.post(
      C.add,
      form({ ...chapter, chapterImage: sampleFile('text', 'page.png', 4096) }),
    );
    expect(reply).toMatchObject({ status: 400, body: { success: false } });
    expect(await readdir(temp)).toEqual([]);
    expect(await snapshotServer(suite.server)).toEqual(before);
  });
});

describe('refusals', () => {
  let cookie = '';
  const send = async (body: string, type: string) => {
    const res = await fetch(`${suite.server.apiRoot}/${C.add}`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': type },
      body,
    });
    return { status: res.status, body: await res.json() };
  };
  let before: Awaited<ReturnType<typeof snapshotServer>>;
  beforeAll(async () => {
    cookie = await signIn(suite.server.apiRoot);
    before = await snapshotServer(suite.server);
  });

  it(`a field value over ${MAX_FIELD_BYTES / (1024 * 1024)} MB: JSON 400`, async () => {
    const reply = await suite.client.post(
      C.add,
      form({ ...chapter, chapterDescription: 'd'.repeat(MAX_FIELD_BYTES + 1) }),
    );
    expect(reply).toMatchObject({ status: 400, body: { success: false, message: 'Malformed request body' } });
  });

  it(`more than ${MAX_PARTS} parts: JSON 400`, async () => {
    const many = form(chapter);
    for (let i = 0; i < MAX_PARTS + 1; i++) many.append(`x${i}`, '1');
    const reply = await suite.client.post(C.add, many);
    expect(reply).toMatchObject({ status: 400, body: { success: false } });
  });

  it('no boundary, a broken body, a body cut before its end: JSON 400', async () => {
    for (const [body, type] of [
      ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', 'multipart/form-data'],
      ['garbage without any boundary', 'multipart/form-data; boundary=zzz'],
      [
        '--x\r\nContent-Disposition: form-data; name="chapterImage"; filename="a.png"\r\n\r\n\x89PNG',
        'multipart/form-data; boundary=x',
      ],
    ]) {
      const reply = await send(body, type);
      expect(reply.status, body).toBe(400);
      expect(reply.body).toMatchObject({ success: false });
    }
    expect(await readdir(temp)).toEqual([]);
    expect(await snapshotServer(suite.server)).toEqual(before);
  });
});
