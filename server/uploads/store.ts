/** The names and contents of stored uploads, whatever the storage (server/storage). */
import { randomBytes } from 'node:crypto';
import type { UploadFolder } from '../storage/folders';
import type { FileStorage } from '../storage/types';

/** A finished resumable upload, made a stored file without being read into memory. */
export interface MovableFile {
  /** Makes it the stored file folder/name and forgets the upload. */
  moveInto(folder: UploadFolder, name: string): Promise<void>;
  /** Called once the request's transaction has ended, whatever its outcome: the upload is gone. */
  release(): Promise<void>;
}

/** What a stored upload is made from: the bytes of a request, or a finished upload. */
export type UploadContent = Uint8Array | MovableFile;

/**
 * A fresh random name with the extension of the detected kind (the client's own name is never
 * used as a path), as the legacy rows hold it.
 */
export function newUploadName(ext: string): string {
  if (!/^[a-z0-9]{1,10}$/.test(ext)) throw new Error(`Unsafe upload extension: ${ext}`);
  return `${Date.now()}_${randomBytes(8).toString('hex')}.${ext}`;
}

/** Writes the content as folder/name. */
export async function writeUpload(
  storage: FileStorage,
  folder: UploadFolder,
  name: string,
  data: UploadContent,
): Promise<void> {
  if (data instanceof Uint8Array) await storage.put(folder, name, data);
  else await data.moveInto(folder, name);
}

/**
 * Stores the content under a new name and returns it, outside any write's journal: for tests
 * and tools. The server's own writes go through the journal (journal.ts), which keeps files
 * in step with their transaction.
 */
export async function saveUpload(
  storage: FileStorage,
  folder: UploadFolder,
  data: UploadContent,
  ext: string,
): Promise<string> {
  const name = newUploadName(ext);
  await writeUpload(storage, folder, name, data);
  return name;
}
