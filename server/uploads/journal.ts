/**
 * Files written by write requests, kept in step with their transaction. A handler stores a new
 * file BEFORE its row (so a row never names a missing file) and notes files its change makes
 * obsolete (a replaced cover, a deleted book's cover). Once an item has its reply:
 * - refused or failed (not 2xx): its new files go at once, its savepoint having been rolled back;
 * - succeeded: its new files stay and its obsolete ones are kept for later.
 * When the transaction commits, the obsolete files of every item that succeeded go; when it
 * rolls back, every new file goes.
 *
 * That much is done at once, but a process can die between any two steps, and a bucket can
 * refuse a removal; then the sweeper (server/storage/sweep.ts) finishes the work, from two
 * records that cannot lie:
 * - every new file is MARKED pending in the storage before it is written, and unmarked only
 *   after its transaction ended;
 * - the transaction itself records, in `upload_journal`, the files it keeps ('kept') and the
 *   ones it made obsolete ('dropped'): those rows commit or vanish with the change.
 * A mark left behind is a file whose fate the journal tells: kept (only the mark goes) or not
 * (the file goes). A 'dropped' row left behind is a removal still to do. So a refused, failed,
 * rolled-back or interrupted write leaves no orphan for good, and a committed one no stale file.
 */
import type { Database, Query } from '../db';
import { requestLog } from '../ops/context';
import type { UploadFolder } from '../storage/folders';
import type { FileStorage } from '../storage/types';
import { type MovableFile, newUploadName, type UploadContent, writeUpload } from './store';

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

/** A file that cannot be removed now is left to the sweeper: log it, the reply stands. */
const logged = (what: string, f: StoredFile) => (err: unknown) =>
  requestLog().error({ err }, `Could not ${what} upload ${f.folder}/${f.name}`);

/** The files of one transaction (one request, or one batch). */
export class FileJournal {
  /** New files of the items that succeeded. */
  private readonly written: StoredFile[] = [];
  /** Every new file, whatever became of its item: a rollback removes them all. */
  private readonly saved: StoredFile[] = [];
  private readonly obsolete: StoredFile[] = [];
  /** Resumable uploads moved in: forgotten when the transaction has ended, either way. */
  private readonly taken: MovableFile[] = [];

  constructor(
    private readonly storage: FileStorage,
    private readonly db: Pick<Database, 'query'>,
  ) {}

  forItem(): ItemJournal {
    const written: StoredFile[] = [];
    const obsolete: StoredFile[] = [];
    return {
      save: async (folder, data, ext) => {
        const name = newUploadName(ext);
        await this.storage.mark(folder, name);
        // Listed before it is written: a write that fails half-way is removed like the rest.
        written.push({ folder, name });
        this.saved.push({ folder, name });
        if (!(data instanceof Uint8Array)) this.taken.push(data);
        await writeUpload(this.storage, folder, name, data);
        return name;
      },
      dropOnSuccess: (folder, name) => void obsolete.push({ folder, name }),
      keep: () => {
        this.written.push(...written);
        this.obsolete.push(...obsolete);
      },
      discard: () => this.removeNew(written),
    };
  }

  /**
   * Inside the transaction, after its last item: records what it keeps and drops, so that the
   * record commits (or vanishes) with the change.
   */
  async record(q: Query): Promise<void> {
    const outcomes = new Map<string, [UploadFolder, string, 'kept' | 'dropped']>();
    for (const f of this.written) outcomes.set(`${f.folder}/${f.name}`, [f.folder, f.name, 'kept']);
    // A file stored and made obsolete by the same transaction is dropped.
    for (const f of this.obsolete) outcomes.set(`${f.folder}/${f.name}`, [f.folder, f.name, 'dropped']);
    if (outcomes.size === 0) return;
    const rows = [...outcomes.values()];
    await q(
      `INSERT INTO upload_journal (folder, name, outcome)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
       ON CONFLICT (folder, name) DO UPDATE SET outcome = excluded.outcome, at = now()`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    );
  }

  /** The transaction committed: files replaced or deleted by its writes go, the marks of new ones. */
  async committed(): Promise<void> {
    const dropped = new Set(this.obsolete.map((f) => `${f.folder}/${f.name}`));
    const kept = this.written.filter((f) => !dropped.has(`${f.folder}/${f.name}`));
    // Unmarked BEFORE their rows go: a mark without its row would send a kept file away.
    await Promise.all(kept.map((f) => this.storage.unmark(f.folder, f.name).catch(logged('unmark', f))));
    const removed = await Promise.all(
      this.obsolete.map((f) =>
        this.storage
          .remove(f.folder, f.name)
          .then(() => this.storage.unmark(f.folder, f.name))
          .then(() => true)
          .catch((err) => {
            logged('remove', f)(err);
            return false;
          }),
      ),
    );
    // A dropped file that could not be removed keeps its row: the sweeper tries again.
    await this.forget([...kept, ...this.obsolete.filter((_, i) => removed[i])]);
    await this.release();
  }

  /** The transaction rolled back: the files its writes stored go. */
  async rolledBack(): Promise<void> {
    await this.removeNew(this.saved);
    await this.release();
  }

  private async removeNew(files: readonly StoredFile[]): Promise<void> {
    await Promise.all(
      files.map((f) =>
        this.storage
          .remove(f.folder, f.name)
          // The mark goes only with its file: left, it tells the sweeper to retry.
          .then(() => this.storage.unmark(f.folder, f.name))
          .catch(logged('remove', f)),
      ),
    );
  }

  private async forget(files: readonly StoredFile[]): Promise<void> {
    if (files.length === 0) return;
    await this.db
      .query(
        `DELETE FROM upload_journal
         WHERE (folder, name) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [files.map((f) => f.folder), files.map((f) => f.name)],
      )
      .catch((err) => requestLog().error({ err }, 'Could not clear the upload journal'));
  }

  private async release(): Promise<void> {
    await Promise.all(
      this.taken.map((upload) =>
        upload.release().catch((err) => requestLog().error({ err }, 'Could not forget a resumable upload')),
      ),
    );
  }
}

/**
 * Runs `fn` in one transaction with a journal for its files, as the write pipeline does for
 * requests: for writes outside any request (the demo data of a first start).
 */
export async function inTransactionWithFiles<T>(
  db: Database,
  storage: FileStorage,
  fn: (q: Query, uploads: UploadJournal) => Promise<T>,
): Promise<T> {
  const files = new FileJournal(storage, db);
  const item = files.forItem();
  try {
    const out = await db.tx(async (q) => {
      const result = await fn(q, item);
      item.keep();
      await files.record(q);
      return result;
    });
    await files.committed();
    return out;
  } catch (err) {
    await files.rolledBack();
    throw err;
  }
}

/** For reads: they never store files. */
export const NO_UPLOADS: UploadJournal = {
  save: () => Promise.reject(new Error('A read request cannot store files')),
  dropOnSuccess: () => undefined,
};
