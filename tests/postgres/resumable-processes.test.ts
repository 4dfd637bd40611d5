/**
 * One resumable upload whose chunks alternate between two server processes on one PostgreSQL
 * database, with no balancer: the client sends each request to the other
 * process. With the local folder the processes share DATA_DIR (one machine); with a bucket
 * they share it. Each chunk goes on from the offset the other process stored, and the record
 * that names the finished upload gets the file byte for byte, served by either process.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app/start';
import type { S3Settings } from '../../server/storage';
import { chapterEntity } from '../../src/contract/entities';
import { RESUMABLE_PATH } from '../../src/contract/resumable';
import { startTestS3, type TestS3 } from '../helpers/s3';
import { ADMIN, api, signIn, startTestServer, type TestServer } from '../helpers/server';
import { chapterFields, form, MB, sampleFile } from '../server/support/files';

const TUS = { 'Tus-Resumable': '1.0.0' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: TestS3;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
  s3 = await startTestS3();
  await s3.createBucket('shared');
});
afterAll(() => s3?.stop());

describe.each([
  ['a shared DATA_DIR', () => undefined],
  ['a shared bucket', () => s3.settings('shared')],
] as [string, () => S3Settings | undefined][])('two processes with %s', (_name, bucket) => {
  let first: TestServer;
  let second: RunningServer;

  beforeAll(async () => {
    first = await startTestServer({ seedDemo: true, settings: { s3: bucket() } });
    second = await startServer({
      port: 0,
      databaseUrl: first.databaseUrl,
      dataDir: first.dataDir,
      adminPassword: ADMIN.password,
      s3: bucket(),
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('take the chunks of one upload in turn, and either serves the file it became', async () => {
    const cookie = await signIn(first.apiRoot);
    const roots = [first.apiRoot, second.apiRoot];
    const bytes = new Uint8Array(await sampleFile('pdf', 'long.pdf', 9 * MB).arrayBuffer());
    for (let i = 16; i < bytes.length; i += 4093) bytes[i] = i % 253;

    const created = await fetch(`${roots[0]}/${RESUMABLE_PATH}/`, {
      method: 'POST',
      headers: { ...TUS, Cookie: cookie, 'Upload-Length': String(bytes.length) },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('Location')!, 'http://x').pathname.replace(/^\/api/, '');
    const at = (n: number) => `${roots[n % 2]}${path}`;

    // Three chunks of 3 MB: process 2, 1, 2; before each, the offset asked of the other one.
    let offset = 0;
    for (let n = 1; n <= 3; n++) {
      const head = await fetch(at(n + 1), { method: 'HEAD', headers: { ...TUS, Cookie: cookie } });
      expect(Number(head.headers.get('Upload-Offset'))).toBe(offset);
      const chunk = bytes.subarray(offset, offset + 3 * MB);
      const sent = await fetch(at(n), {
        method: 'PATCH',
        headers: {
          ...TUS,
          Cookie: cookie,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
        },
        body: chunk,
      });
      expect(sent.status).toBe(204);
      offset += chunk.length;
      expect(sent.headers.get('Upload-Offset')).toBe(String(offset));
    }

    const reply = await api(roots[0], cookie).post(
      chapterEntity.api.add,
      form({ ...chapterFields('Sent in turns'), chapterImage: `tus:${path.split('/').at(-1)}` }),
    );
    expect(reply.body).toMatchObject({ success: true });
    const row = (await api(roots[1], cookie).get(chapterEntity.api.get, { chapter_id: reply.body.id })).body
      .chapter;
    for (const root of roots) {
      const file = await fetch(`${root}/uploads/chapter_content/${row.chapter_image}`);
      expect(file.status).toBe(200);
      expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytes));
    }
  });
});
