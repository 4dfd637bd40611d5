/**
 * The local folder (no S3_BUCKET): files in `uploads/{folder}/{name}`, pending marks in
 * `uploads/.pending/{folder}/{name}` (empty files: their time is the mark's), resumable uploads
 * in `tus/` beside it (@tus/file-store: `<id>` and `<id>.json`). Processes that share the
 * folder (one machine, one DATA_DIR) share all of it: a finished upload is moved by a rename.
 */
import { constants, createReadStream } from 'node:fs';
import { access, copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { isSafeFileName, isUploadFolder, type UploadFolder } from './folders';
import { withoutDeferredLength } from './tus-datastore';
import type { FileStorage, PendingMark, StoredUpload, TusStorage } from './types';

const PENDING = '.pending';

/** A rename, or a streamed copy when the folders are on different file systems. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

const modifiedOf = (path: string) =>
  stat(path)
    .then((s) => s.mtime)
    .catch(() => null);

function localTus(dir: string, uploadsDir: string): TusStorage {
  const datastore = withoutDeferredLength(new FileStore({ directory: dir }));
  return {
    datastore,
    async head(id, bytes) {
      const file = await open(join(dir, id), 'r');
      try {
        const head = new Uint8Array(bytes);
        const { bytesRead } = await file.read(head, 0, bytes, 0);
        return head.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },
    async moveInto(id, folder, name) {
      await mkdir(join(uploadsDir, folder), { recursive: true });
      await move(join(dir, id), join(uploadsDir, folder, name));
      await rm(join(dir, `${id}.json`), { force: true });
    },
    async remove(id) {
      await rm(join(dir, id), { force: true });
      await rm(join(dir, `${id}.json`), { force: true });
    },
    async list() {
      const names = await readdir(dir).catch(() => [] as string[]);
      const ids = [...new Set(names.map((n) => n.replace(/\.json$/, '')))];
      const uploads: StoredUpload[] = [];
      for (const id of ids) {
        // The data file's time is the last chunk received; without it (a moved upload whose
        // info file stayed), the info file's.
        const modified = (await modifiedOf(join(dir, id))) ?? (await modifiedOf(join(dir, `${id}.json`)));
        if (modified) uploads.push({ id, modified });
      }
      return uploads;
    },
  };
}

export function localStorage(uploadsDir: string, tusDir: string): FileStorage {
  const path = (folder: UploadFolder, name: string) => join(uploadsDir, folder, name);
  const markPath = (folder: UploadFolder, name: string) => join(uploadsDir, PENDING, folder, name);
  return {
    async put(folder, name, bytes) {
      await mkdir(join(uploadsDir, folder), { recursive: true });
      await writeFile(path(folder, name), bytes, { flag: 'wx' });
    },
    async open(folder, name) {
      const file = path(folder, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return {
        size: info.size,
        modified: info.mtime,
        stream: async (range) =>
          Readable.toWeb(createReadStream(file, range)) as unknown as ReadableStream<Uint8Array>,
      };
    },
    async remove(folder, name) {
      await rm(path(folder, name), { force: true });
    },
    async list(folder) {
      return (await readdir(join(uploadsDir, folder)).catch(() => [] as string[])).sort();
    },
    async mark(folder, name) {
      await mkdir(join(uploadsDir, PENDING, folder), { recursive: true });
      await writeFile(markPath(folder, name), '');
    },
    async unmark(folder, name) {
      await rm(markPath(folder, name), { force: true });
    },
    async marks(before) {
      const found: PendingMark[] = [];
      const folders = await readdir(join(uploadsDir, PENDING)).catch(() => [] as string[]);
      for (const folder of folders.filter(isUploadFolder)) {
        for (const name of await readdir(join(uploadsDir, PENDING, folder)).catch(() => [] as string[])) {
          const since = isSafeFileName(name) ? await modifiedOf(markPath(folder, name)) : null;
          if (since && since < before) found.push({ folder, name, since });
        }
      }
      return found;
    },
    async ready() {
      try {
        await access(uploadsDir, constants.W_OK);
        return null;
      } catch (err) {
        return `cannot write to ${uploadsDir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
      }
    },
    tus: localTus(tusDir, uploadsDir),
  };
}
