/**
 * One file to our server in resumable chunks: the tus protocol through tus-js-client, which
 * comes with the sync engine (loaded on demand, so not in the app's first load; a dynamic
 * import here would also break the service worker, a classic script, with vite's preload
 * helper and its `import.meta`). After a dropped
 * connection tus-js-client asks the server for its offset (HEAD) and goes on from there,
 * a few times at once (retryDelays); past those, the caller's own retry resumes the same way,
 * because the upload's URL is kept in `memory` (the outbox entry: it survives a reload or a
 * worker restart, where localStorage does not exist).
 *
 * A kept URL is used only for the same content: it is stored with a fingerprint of the Blob
 * (size, type, hash of its first and last 64 KB). An upload the server no longer has (swept,
 * or already taken by the record's request) is created anew.
 *
 * The outcome is the upload's reference (`tus:<id>`) for the record's request; 'unsupported'
 * when the server has no tus endpoint (404 or 405 on the creation request: the PHP API); or
 * the last answer (or its absence) for the caller to classify like any other reply.
 */
import { type DetailedError, type PreviousUpload, Upload, type UrlStorage } from 'tus-js-client';
import { RESUMABLE_PATH, uploadReference } from '../../contract/resumable';
import type { Envelope } from '../../contract/wire';
import type { StoredUpload } from '../../db/outbox/outbox-entry';
import { type ApiClient, type ApiOutcome, parseRetryAfter } from '../api/api-client';
import { blobReader, fetchHttpStack } from './tus-http';

/** The name a chosen file had on the device; none for a Blob made by the app. */
export const nameOf = (blob: Blob): string | undefined =>
  blob instanceof File && blob.name ? blob.name : undefined;

/** Below the server's 12 MB body limit; a cut connection costs at most what was in flight. */
export const CHUNK_BYTES = 5 * 1024 * 1024;

/** Where an upload's URL is kept between attempts. */
export interface UploadMemory {
  load(): Promise<StoredUpload | undefined>;
  save(upload: StoredUpload): Promise<void>;
}

export type ResumableOutcome =
  | { kind: 'done'; reference: string }
  | { kind: 'unsupported' }
  | { kind: 'stopped'; outcome: ApiOutcome };

export interface ResumableOptions {
  memory: UploadMemory;
  /** Bytes on their way or confirmed, and bytes the server confirmed, of the file's total. */
  onProgress?: (sent: number, confirmed: number, total: number) => void;
  /** The server answered a request of the upload (whatever it said): it can be reached. */
  onAnswer?: () => void;
}

const SAMPLE_BYTES = 64 * 1024;

/** Size, type and a hash of both ends: cheap, and enough to tell two chosen files apart. */
export async function blobFingerprint(blob: Blob): Promise<string> {
  const ends = new Blob([blob.slice(0, SAMPLE_BYTES), blob.slice(Math.max(0, blob.size - SAMPLE_BYTES))]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await ends.arrayBuffer()));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${blob.size}:${blob.type}:${hex}`;
}

/**
 * tus-js-client's URL storage, kept in `memory` for one file. Removal is a no-op: a URL the
 * server refused is replaced by the next upload's anyway, and one refused for a lapsed session
 * (401) must survive, so that the upload resumes after the next sign-in.
 */
function memoryStorage(memory: UploadMemory, size: number): UrlStorage {
  const KEY = 'outbox-entry';
  const find = async (fingerprint?: string): Promise<PreviousUpload[]> => {
    const stored = await memory.load();
    if (!stored || (fingerprint !== undefined && stored.fingerprint !== fingerprint)) return [];
    const { url } = stored;
    return [
      { size, metadata: {}, creationTime: '', urlStorageKey: KEY, uploadUrl: url, parallelUploadUrls: null },
    ];
  };
  return {
    findAllUploads: () => find(),
    findUploadsByFingerprint: (fingerprint) => find(fingerprint),
    removeUpload: async () => {},
    async addUpload(fingerprint, upload) {
      if (upload.uploadUrl) await memory.save({ url: upload.uploadUrl, size, fingerprint });
      return KEY;
    },
  };
}

/** The last answer tus-js-client got, as the API client would have reported it. */
function outcomeOf(error: Error | DetailedError): ApiOutcome {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return { kind: 'unreachable', error: error.message };
  const status = response.getStatus();
  const retryAfterMs = parseRetryAfter(response.getHeader('Retry-After') ?? null);
  const method = 'originalRequest' in error ? error.originalRequest?.getMethod() : undefined;
  // The upload is gone (swept as abandoned, or taken by an earlier record request whose reply
  // was lost): the next attempt creates it again.
  if (method !== 'POST' && (status === 404 || status === 410))
    return { kind: 'unreachable', error: 'The server no longer has the partial upload; it starts again' };
  let body: unknown;
  try {
    body = JSON.parse(response.getBody());
  } catch {}
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { kind: 'not-json', status, retryAfterMs };
  return { kind: 'reply', status, body: body as Envelope, replayed: false, retryAfterMs };
}

const isUnsupported = (error: Error | DetailedError) =>
  'originalRequest' in error &&
  error.originalRequest?.getMethod() === 'POST' &&
  [404, 405].includes(error.originalResponse?.getStatus() ?? 0);

export async function uploadResumable(
  api: ApiClient,
  blob: Blob,
  options: ResumableOptions,
): Promise<ResumableOutcome> {
  if (!api.fetch) return { kind: 'unsupported' };
  const fetcher = api.fetch;
  const fingerprint = await blobFingerprint(blob);
  const filename = nameOf(blob);
  let confirmed = 0;
  return new Promise<ResumableOutcome>((resolve) => {
    const upload = new Upload(blob, {
      endpoint: `${api.root}/${RESUMABLE_PATH}/`,
      chunkSize: CHUNK_BYTES,
      // The name the record keeps beside its stored one (contract/original-file-name.ts).
      metadata: filename ? { filename } : {},
      // At once, then after 1, 3 and 5 s; the count restarts whenever bytes got through.
      retryDelays: [0, 1000, 3000, 5000],
      httpStack: fetchHttpStack(fetcher, api.progressiveUploads),
      fileReader: blobReader(!api.progressiveUploads),
      fingerprint: async () => fingerprint,
      urlStorage: memoryStorage(options.memory, blob.size),
      storeFingerprintForResuming: true,
      // Kept after success: a resend finds the finished upload with one HEAD.
      removeFingerprintOnSuccess: false,
      onProgress: (sent, total) => options.onProgress?.(sent, confirmed, total),
      onAfterResponse: () => options.onAnswer?.(),
      onChunkComplete: (_chunk, accepted, total) => {
        confirmed = accepted;
        options.onProgress?.(accepted, accepted, total);
      },
      onSuccess: () => {
        const id = new URL(upload.url!).pathname.split('/').filter(Boolean).at(-1)!;
        resolve({ kind: 'done', reference: uploadReference(id) });
      },
      onError: (error) =>
        resolve(
          isUnsupported(error) ? { kind: 'unsupported' } : { kind: 'stopped', outcome: outcomeOf(error) },
        ),
    });
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch((error: Error) => resolve({ kind: 'stopped', outcome: outcomeOf(error) }));
  });
}
