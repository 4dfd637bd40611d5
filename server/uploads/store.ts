/** Writing an uploaded file (used by the multipart entities that come later). */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { UploadFolder } from './folders';

/**
 * Stores the file under a fresh random name that keeps only a sanitised extension (the
 * client's own name is never used as a path) and returns that name, as the legacy rows hold it.
 */
export async function saveUpload(uploadsDir: string, folder: UploadFolder, file: File): Promise<string> {
  const ext = extname(file.name)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 10);
  const name = `${Date.now()}_${randomBytes(8).toString('hex')}${ext}`;
  const dir = join(uploadsDir, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), Buffer.from(await file.arrayBuffer()));
  return name;
}
