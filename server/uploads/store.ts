/** Writing and removing uploaded files under uploads/{folder}/. */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSafeFileName, type UploadFolder } from './folders';

/**
 * Stores the bytes under a fresh random name with the extension of the detected kind (the
 * client's own name is never used as a path) and returns that name, as the legacy rows hold it.
 */
export async function saveUpload(
  uploadsDir: string,
  folder: UploadFolder,
  data: Uint8Array,
  ext: string,
): Promise<string> {
  if (!/^[a-z0-9]{1,10}$/.test(ext)) throw new Error(`Unsafe upload extension: ${ext}`);
  const name = `${Date.now()}_${randomBytes(8).toString('hex')}.${ext}`;
  const dir = join(uploadsDir, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), data);
  return name;
}

/** Removes a stored file; a name that is gone already (or was never safe) is not an error. */
export async function removeUpload(uploadsDir: string, folder: UploadFolder, name: string): Promise<void> {
  if (!isSafeFileName(name)) return;
  await rm(join(uploadsDir, folder, name), { force: true });
}
