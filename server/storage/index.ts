/**
 * Opens the storage the settings ask for (server/storage/types.ts): the bucket when S3_BUCKET
 * is set, else the local folder. A bucket that cannot be used stops the start with one line
 * saying why (StartRefused, printed by commands/serve.ts), and `ready()` answers the same question for
 * the readiness check while the server runs (`storageReady`).
 */
import { mkdir } from 'node:fs/promises';
import { StartRefused } from '../ops/start-error';
import { localStorage } from './local';
import { s3Storage } from './s3';
import type { S3Settings } from './settings';
import type { FileStorage } from './types';

export type { S3Settings } from './settings';
export type { FileStorage } from './types';

/** A bucket, or the local folders: uploads/{folder}/{name} and the resumable uploads in progress. */
export type StorageOptions = { s3: S3Settings } | { uploadsDir: string; tusDir: string };

/** The storage, checked: refuses the start when it does not answer (a bucket that does not exist, wrong keys). */
export async function openStorage(options: StorageOptions): Promise<FileStorage> {
  if (!('s3' in options)) {
    await mkdir(options.uploadsDir, { recursive: true });
    await mkdir(options.tusDir, { recursive: true });
  }
  const storage = 's3' in options ? s3Storage(options.s3) : localStorage(options.uploadsDir, options.tusDir);
  const problem = await storage.ready();
  if (problem) throw new StartRefused(`Object storage: ${problem}`);
  return storage;
}

/**
 * For GET /readyz: null when the storage answers (the bucket exists and takes our keys, or the
 * folder is writable), else the reason in a few words.
 */
export const storageReady = (storage: FileStorage): Promise<string | null> => storage.ready();
