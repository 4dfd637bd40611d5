/**
 * Object storage as an operator meets it: the S3 settings are read from the
 * environment, a bucket that cannot be used stops the start with one line, the readiness check
 * tells the same while the server runs, and with a bucket nothing but the database lands in
 * DATA_DIR.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverOptionsFrom } from '../../server/app/config';
import { startServer } from '../../server/app/start';
import { StartRefused } from '../../server/ops/start-error';
import { storageReady } from '../../server/storage';
import { RESUMABLE_PATH } from '../../src/contract/resumable';
import { startTestS3, type TestS3 } from '../helpers/s3';
import { ADMIN, signIn } from '../helpers/server';

let s3: TestS3;
let dir: string;

beforeAll(async () => {
  s3 = await startTestS3();
  await s3.createBucket('files');
  dir = await mkdtemp(join(tmpdir(), 's3-start-'));
});
afterAll(async () => {
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the S3 settings', () => {
  const env = { S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: '1' };

  it('are read from the environment, the region defaulting to us-east-1', () => {
    expect(serverOptionsFrom({}).s3).toBeUndefined();
    expect(serverOptionsFrom({ ...env, S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3).toEqual({
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    expect(serverOptionsFrom({ ...env, S3_REGION: 'eu-west-3' }).s3?.region).toBe('eu-west-3');
  });

  it.each([
    [{ S3_ENDPOINT: 'http://x' }, 'S3_ENDPOINT set without S3_BUCKET'],
    [{ ...env, S3_ACCESS_KEY_ID: 'k' }, 'Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither'],
    [{ ...env, S3_ENDPOINT: 'minio:9000' }, "S3_ENDPOINT must be an http or https URL, not 'minio:9000'"],
    [{ ...env, S3_FORCE_PATH_STYLE: 'yes' }, "S3_FORCE_PATH_STYLE must be 1 or 0, not 'yes'"],
  ])('refuse half a configuration: %j', (vars, message) => {
    expect(() => serverOptionsFrom(vars)).toThrow(message);
  });
});

describe('a bucket that cannot be used stops the start with one line', () => {
  const start = (s3Settings: ReturnType<TestS3['settings']>) =>
    startServer({ port: 0, dataDir: 'memory://', adminPassword: ADMIN.password, s3: s3Settings });

  it('when it does not exist', async () => {
    const refused = start(s3.settings('missing'));
    await expect(refused).rejects.toBeInstanceOf(StartRefused);
    await expect(refused).rejects.toThrow(
      `Object storage: the bucket 'missing' does not exist at ${s3.endpoint}`,
    );
  });

  it('with wrong credentials', async () => {
    await expect(start({ ...s3.settings('files'), accessKeyId: 'WRONG' })).rejects.toThrow(
      `Object storage: ${s3.endpoint} refused access to the bucket 'files': check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (HTTP 403)`,
    );
  });

  it('when nothing answers at the endpoint', async () => {
    const gone = await startTestS3();
    await gone.stop();
    await expect(start({ ...s3.settings('files'), endpoint: gone.endpoint })).rejects.toThrow(
      /^Object storage: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
    );
  });
});

describe('a server on a bucket', () => {
  it('keeps files and resumable uploads there, only its database in DATA_DIR, and says when the bucket is gone', async () => {
    const own = await startTestS3();
    await own.createBucket('own');
    const dataDir = join(dir, 'data');
    const server = await startServer({
      port: 0,
      dataDir,
      adminPassword: ADMIN.password,
      seedDemo: true,
      s3: own.settings('own'),
    });
    try {
      // The demo's page scans went to the bucket.
      expect((await server.storage.list('book_pages')).length).toBeGreaterThan(0);
      const cookie = await signIn(server.apiRoot);
      const created = await fetch(`${server.apiRoot}/${RESUMABLE_PATH}/`, {
        method: 'POST',
        headers: { 'Tus-Resumable': '1.0.0', Cookie: cookie, 'Upload-Length': '100' },
      });
      expect(created.status).toBe(201);
      const at = new URL(created.headers.get('Location')!, server.url).href;
      const chunk = await fetch(at, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          Cookie: cookie,
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(40),
      });
      expect(chunk.status).toBe(204);
      expect((await server.storage.tus.list()).map((u) => u.id)).toEqual([at.split('/').at(-1)]);
      // The embedded database and the backup tool's way in (backup/route.ts): no uploads/, no tus/.
      expect(await readdir(dataDir)).toEqual(['backup-access.json', 'pgdata']);

      expect(await storageReady(server.storage)).toBeNull();
      await own.stop();
      expect(await storageReady(server.storage)).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+ /);
    } finally {
      await server.close();
      await own.stop();
    }
    // Starting a server with its demo data on a loaded machine.
  }, 120_000);
});
