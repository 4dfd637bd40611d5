/**
 * An S3 emulator for tests: s3rver (npm) on a free loopback port, its buckets in a temp
 * folder, removed on stop.
 *
 * s3rver 3.7.1 (the latest release) implements multipart uploads up to CompleteMultipartUpload
 * but not ListParts, AbortMultipartUpload or ListMultipartUploads, which @tus/s3-store calls
 * (ListParts gives a resumable upload's offset; Abort removes an unfinished one). Its fork
 * @20minutes/s3rver lacks them too (and 5.x needs Node 24), fauxqs needs Node 22, and MinIO,
 * Garage or Ceph are not npm packages. So the three are answered here, in front of s3rver's
 * own routes, from the folder where s3rver keeps the parts of an upload in progress
 * (`<bucket>/._S3rver_uploads/<uploadId>/<partNumber>` beside `<partNumber>.md5`). They are
 * the only requests not checked for a signature; every other one goes through s3rver whole.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const S3_TEST_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3 {
  endpoint: string;
  /** The settings a server takes (server/storage/settings.ts), for `bucket`. */
  settings(bucket: string): {
    bucket: string;
    endpoint: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  };
  /** Creates an empty bucket. */
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

function noSuchUpload(ctx: KoaContext) {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = xml(
    '<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>',
  );
}

/** ListParts and AbortMultipartUpload, which s3rver lacks (see the module comment). */
function multipartExtras(root: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    const [, bucket, ...key] = ctx.path.split('/');
    if (!uploadId || !bucket || key.length === 0 || !/^[0-9a-f]+$/.test(uploadId)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'DELETE') return next();
    const dir = join(root, bucket, '._S3rver_uploads', uploadId);
    const names = await readdir(dir).catch(() => null);
    if (!names) return noSuchUpload(ctx);
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const numbers = names
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const info = await stat(join(dir, String(n)));
        const md5 = (await readFile(join(dir, `${n}.md5`), 'utf8')).trim();
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = xml(
      `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  };
}

export async function startTestS3(): Promise<TestS3> {
  const root = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: root });
  // Koa composes its middleware when it starts listening: the extras go first.
  (server as unknown as { middleware: unknown[] }).middleware.unshift(multipartExtras(root));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  let stopped = false;
  const store = (server as unknown as { store: { putBucket(name: string): Promise<void> } }).store;
  return {
    endpoint,
    settings: (bucket) => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      ...S3_TEST_KEYS,
      forcePathStyle: true,
    }),
    createBucket: (name) => store.putBucket(name),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
