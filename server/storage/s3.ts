/**
 * An S3-compatible bucket (S3_BUCKET): AWS S3, MinIO, Garage, Ceph RGW. Keys:
 * - `uploads/{folder}/{name}`: the stored files, served by the API as from the folder;
 * - `pending/{folder}/{name}`: the journal's pending marks (empty objects, their time the mark's);
 * - `tus/<id>`, `tus/<id>.info`, `tus/<id>.part`: resumable uploads (@tus/s3-store: one S3
 *   multipart upload per tus upload, a part per chunk, completed into `tus/<id>` when the last
 *   byte arrives). A record takes a finished one with a server-side copy, never through here.
 *
 * Checksums are sent and checked only where S3 requires them: the SDK's newer default (a
 * CRC32 trailer on every upload, in aws-chunked encoding) is not understood by every
 * S3-compatible store, and TLS already protects the bytes in transit.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { KvStore } from '@tus/utils';
import { getMimeType } from 'hono/utils/mime';
import { isSafeFileName, isUploadFolder, type UploadFolder } from './folders';
import type { S3Settings } from './settings';
import { PrefixedDataStore } from './tus-datastore';
import type { FileStorage, PendingMark, StoredObject, StoredUpload, TusStorage } from './types';

const FILES = 'uploads/';
const MARKS = 'pending/';
const TUS = 'tus/';

/** A chunk of the app is 5 MB: one S3 part each (S3's smallest part but the last). */
const PART_BYTES = 5 * 1024 * 1024;

export function clientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

interface S3Failure {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: { code?: string };
}

const statusOf = (err: unknown) => (err as S3Failure)?.$metadata?.httpStatusCode;
const isMissing = (err: unknown) =>
  statusOf(err) === 404 || ['NotFound', 'NoSuchKey'].includes((err as S3Failure)?.name ?? '');

/** What went wrong with the bucket, in one line an operator can act on. */
export function bucketProblem(err: unknown, settings: S3Settings): string {
  const where = settings.endpoint ?? `AWS S3 (${settings.region})`;
  const { name = '', code, cause } = (err ?? {}) as S3Failure;
  const status = statusOf(err);
  if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket')
    return `the bucket '${settings.bucket}' does not exist at ${where}`;
  if (
    status === 401 ||
    status === 403 ||
    ['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden'].includes(name)
  )
    return `${where} refused access to the bucket '${settings.bucket}': check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (${name && name !== 'Unknown' ? name : `HTTP ${status}`})`;
  if (status === 301 || name === 'PermanentRedirect')
    return `the bucket '${settings.bucket}' is in another region than S3_REGION (${settings.region})`;
  const network = code ?? cause?.code;
  if (network || !status) return `cannot reach ${where} (${network ?? name ?? 'no answer'})`;
  return `${where} answered ${status} ${name} for the bucket '${settings.bucket}'`;
}

const NO_CACHE: KvStore<never> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
  list: async () => [],
};

function s3Tus(client: S3Client, settings: S3Settings): TusStorage {
  const { bucket } = settings;
  const inner = new S3Store({
    partSize: PART_BYTES,
    s3ClientConfig: {
      bucket,
      ...clientConfig(settings),
      // It writes a chunk's tail shorter than a part as an object from a file stream, and the
      // SDK warns of every such stream that it cannot tell its length: noise, not news.
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    },
    // No cache of uploads' info in this process's memory: another process may take or remove
    // an upload, and a stale entry would make a removed upload look finished.
    cache: NO_CACHE,
  });
  const keysOf = (id: string) => [`${TUS}${id}`, `${TUS}${id}.info`, `${TUS}${id}.part`];
  const removeKeys = (keys: string[]) =>
    Promise.all(keys.map((Key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))));
  return {
    datastore: new PrefixedDataStore(inner, TUS),
    async head(id, bytes) {
      try {
        const got = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: `${TUS}${id}`, Range: `bytes=0-${bytes - 1}` }),
        );
        return new Uint8Array((await got.Body?.transformToByteArray()) ?? []);
      } catch (err) {
        // An empty upload has no byte 0.
        if (statusOf(err) === 416) return new Uint8Array();
        throw err;
      }
    },
    async moveInto(id, folder, name) {
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: `${FILES}${folder}/${name}`,
          CopySource: `${bucket}/${TUS}${id}`,
          ContentType: getMimeType(name) ?? 'application/octet-stream',
          MetadataDirective: 'REPLACE',
        }),
      );
      await removeKeys(keysOf(id));
    },
    async remove(id) {
      // Aborts the multipart upload of an unfinished one (its parts are not objects to delete);
      // a finished one has none, which @tus/s3-store reports as not found.
      await inner.remove(`${TUS}${id}`).catch(() => {});
      await removeKeys(keysOf(id));
    },
    async list() {
      const latest = new Map<string, Date>();
      for await (const { key, modified } of listKeys(client, bucket, TUS)) {
        const id = key.slice(TUS.length).replace(/\.(info|part)$/, '');
        const known = latest.get(id);
        if (!known || modified > known) latest.set(id, modified);
      }
      return [...latest].map(([id, modified]): StoredUpload => ({ id, modified }));
    },
  };
}

async function* listKeys(client: S3Client, bucket: string, prefix: string) {
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }),
    );
    for (const o of page.Contents ?? [])
      if (o.Key) yield { key: o.Key, modified: o.LastModified ?? new Date(0) };
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/** An object's size and time, and its bytes on demand (a range of them for a Range request). */
async function openObject(client: S3Client, bucket: string, Key: string): Promise<StoredObject | null> {
  let found: HeadObjectCommandOutput;
  try {
    found = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  return {
    size: found.ContentLength ?? 0,
    modified: found.LastModified ?? new Date(0),
    async stream(range) {
      const got = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!got.Body) throw new Error(`S3 sent no body for ${Key}`);
      return got.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    },
  };
}

export function s3Storage(settings: S3Settings): FileStorage {
  const { bucket } = settings;
  const client = new S3Client(clientConfig(settings));
  // The readiness check answers at once rather than after the SDK's retries.
  const checker = new S3Client({ ...clientConfig(settings), maxAttempts: 1 });
  const fileKey = (folder: UploadFolder, name: string) => `${FILES}${folder}/${name}`;
  const markKey = (folder: UploadFolder, name: string) => `${MARKS}${folder}/${name}`;

  return {
    async put(folder, name, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: fileKey(folder, name),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: getMimeType(name) ?? 'application/octet-stream',
        }),
      );
    },
    open: (folder, name) => openObject(client, bucket, fileKey(folder, name)),
    async remove(folder, name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: fileKey(folder, name) }));
    },
    async list(folder) {
      const names: string[] = [];
      for await (const { key } of listKeys(client, bucket, `${FILES}${folder}/`))
        names.push(key.slice(`${FILES}${folder}/`.length));
      return names.sort();
    },
    async mark(folder, name) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: markKey(folder, name), Body: '', ContentLength: 0 }),
      );
    },
    async unmark(folder, name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: markKey(folder, name) }));
    },
    async marks(before) {
      const found: PendingMark[] = [];
      for await (const { key, modified } of listKeys(client, bucket, MARKS)) {
        const [folder, name, ...more] = key.slice(MARKS.length).split('/');
        if (more.length === 0 && isUploadFolder(folder) && isSafeFileName(name) && modified < before)
          found.push({ folder, name, since: modified });
      }
      return found;
    },
    async ready() {
      try {
        await checker.send(new HeadBucketCommand({ Bucket: bucket }));
        return null;
      } catch (err) {
        return bucketProblem(err, settings);
      }
    },
    tus: s3Tus(client, settings),
  };
}
