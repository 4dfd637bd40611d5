/** Writing and removing uploaded files under uploads/{folder}/. */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSafeFileName, type UploadFolder } from './folders';

/** A file already on disk (a finished resumable upload) that can be moved into place. */
export interface MovableFile {
  moveTo(dest: string): Promise<void>;
}

/** What a stored upload is made from: the bytes of a request, or a file to move. */
export type UploadContent = Uint8Array | MovableFile;

/**
 * Stores the content under a fresh random name with the extension of the detected kind (the
 * client's own name is never used as a path) and returns that name, as the legacy rows hold it.
 */
export async function saveUpload(
  uploadsDir: string,
  folder: UploadFolder,
  data: UploadContent,
  ext: string,
): Promise<string> {
  if (!/^[a-z0-9]{1,10}$/.test(ext)) throw new Error(`Unsafe upload extension: ${ext}`);
  const name = `${Date.now()}_${randomBytes(8).toString('hex')}.${ext}`;
  const dir = join(uploadsDir, folder);
  await mkdir(dir, { recursive: true });
  if (data instanceof Uint8Array) await writeFile(join(dir, name), data);
  else await data.moveTo(join(dir, name));
  return name;
}

/** Removes a stored file; a name that is gone already (or was never safe) is not an error. */
export async function removeUpload(uploadsDir: string, folder: UploadFolder, name: string): Promise<void> {
  if (!isSafeFileName(name)) return;
  await rm(join(uploadsDir, folder, name), { force: true });
}
