/**
 * Files written by write requests, kept in step with their transaction. A handler stores a new
 * file BEFORE its row (so a row never names a missing file) and notes files its change makes
 * obsolete (a replaced cover, a deleted book's cover). Once an item has its reply:
 * - refused or failed (not 2xx): its new files go at once, its savepoint having been rolled back;
 * - succeeded: its new files stay and its obsolete ones are kept for later.
 * When the transaction commits, the obsolete files of every item that succeeded go; when it
 * rolls back, every new file goes. So a refused, failed or rolled-back write leaves no orphan
 * on disk, and a committed one no stale file.
 */
import type { UploadFolder } from './folders';
import { removeUpload, saveUpload, type UploadContent } from './store';

export interface UploadJournal {
  /**
   * Stores the file now (the bytes, or a finished resumable upload moved in); it is removed
   * again unless the request succeeds and commits.
   */
  save(folder: UploadFolder, data: UploadContent, ext: string): Promise<string>;
  /** Removes the file once the request has succeeded and committed. */
  dropOnSuccess(folder: UploadFolder, name: string): void;
}

interface StoredFile {
  folder: UploadFolder;
  name: string;
}

/** One item's files: handed to its handler, then kept or discarded with its reply. */
export interface ItemJournal extends UploadJournal {
  /** The item succeeded: its files follow the transaction's outcome. */
  keep(): void;
  /** The item was refused or failed: its new files go now. */
  discard(): Promise<void>;
}

/** The files of one transaction (one request, or one batch). */
export class FileJournal {
  private readonly written: StoredFile[] = [];
  private readonly obsolete: StoredFile[] = [];

  constructor(private readonly uploadsDir: string) {}

  forItem(): ItemJournal {
    const written: StoredFile[] = [];
    const obsolete: StoredFile[] = [];
    return {
      save: async (folder, data, ext) => {
        const name = await saveUpload(this.uploadsDir, folder, data, ext);
        written.push({ folder, name });
        return name;
      },
      dropOnSuccess: (folder, name) => void obsolete.push({ folder, name }),
      keep: () => {
        this.written.push(...written);
        this.obsolete.push(...obsolete);
      },
      discard: () => this.remove(written),
    };
  }

  /** The transaction committed: files replaced or deleted by its writes go. */
  committed(): Promise<void> {
    return this.remove(this.obsolete);
  }

  /** The transaction rolled back: the files its writes stored go. */
  rolledBack(): Promise<void> {
    return this.remove(this.written);
  }

  private async remove(files: readonly StoredFile[]): Promise<void> {
    // A file that cannot be removed is only clutter: log it, the reply stands.
    await Promise.all(
      files.map((f) =>
        removeUpload(this.uploadsDir, f.folder, f.name).catch((err) =>
          console.error(`Could not remove upload ${f.folder}/${f.name}:`, err),
        ),
      ),
    );
  }
}

/** For reads: they never store files. */
export const NO_UPLOADS: UploadJournal = {
  save: () => Promise.reject(new Error('A read request cannot store files')),
  dropOnSuccess: () => undefined,
};
