/**
 * Files written by a write request, kept in step with its transaction. The handler stores a
 * new file BEFORE its row (so a row never names a missing file) and notes files its change
 * makes obsolete (a replaced cover, a deleted book's cover). Once the request has its reply:
 * - success (2xx): the transaction committed, so the obsolete files go;
 * - anything else (a refusal, or a 5xx whose transaction rolled back): the new files go, so a
 *   refused or failed request leaves no orphan on disk.
 * It must run outside writeTransaction, so that it sees the final status, commit included.
 * An item of a batch commits with the batch, so its removals wait for the batch's outcome.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import type { UploadFolder } from './folders';
import { removeUpload, saveUpload, type UploadContent } from './store';

export interface UploadJournal {
  /**
   * Stores the file now (the bytes, or a finished resumable upload moved in); it is removed
   * again unless the request succeeds.
   */
  save(folder: UploadFolder, data: UploadContent, ext: string): Promise<string>;
  /** Removes the file once the request has succeeded. */
  dropOnSuccess(folder: UploadFolder, name: string): void;
}

export function uploadJournal(uploadsDir: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    type Entry = { folder: UploadFolder; name: string };
    const written: Entry[] = [];
    const obsolete: Entry[] = [];
    c.set('uploads', {
      async save(folder, data, ext) {
        const name = await saveUpload(uploadsDir, folder, data, ext);
        written.push({ folder, name });
        return name;
      },
      dropOnSuccess: (folder, name) => void obsolete.push({ folder, name }),
    });
    await next();
    const succeeded = c.res.status >= 200 && c.res.status < 300;
    // A file that cannot be removed is only clutter: log it, the reply stands.
    const removeAll = (files: Entry[]) => () =>
      Promise.all(
        files.map((f) =>
          removeUpload(uploadsDir, f.folder, f.name).catch((err) =>
            console.error(`Could not remove upload ${f.folder}/${f.name}:`, err),
          ),
        ),
      ).then(() => undefined);
    const batch = c.env?.batch;
    if (!batch) return removeAll(succeeded ? obsolete : written)();
    // An item of a batch has not committed yet when its reply is ready: the batch has.
    if (!succeeded) return removeAll(written)();
    batch.onCommit.push(removeAll(obsolete));
    batch.onRollback.push(removeAll(written));
  };
}
