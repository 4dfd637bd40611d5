/**
 * Where uploaded files and resumable uploads in progress live: a local folder (the default) or
 * an S3-compatible bucket (S3_BUCKET). The rest of the server sees only this interface, so it
 * never knows which one it has: the upload journal writes and removes through it, the serving
 * route reads through it, the tus endpoint keeps its uploads in its `tus` part.
 *
 * Names are checked before they get here (storage/folders.ts): one safe path segment in a
 * whitelisted folder, so no implementation has to guard against traversal on its own.
 */
import type { DataStore } from '@tus/utils';
import type { UploadFolder } from './folders';

/** A stored file as the serving route needs it. */
export interface StoredObject {
  size: number;
  modified: Date;
  /** Its bytes from `start` to `end` inclusive (all of them without a range), as they come. */
  stream(range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array>>;
}

/** A file that a write left marked pending (uploads/journal.ts), and since when. */
export interface PendingMark {
  folder: UploadFolder;
  name: string;
  since: Date;
}

export interface FileStorage {
  /** Stores the bytes as folder/name (a new name: nothing is ever overwritten). */
  put(folder: UploadFolder, name: string, bytes: Uint8Array): Promise<void>;
  /** The stored file, or null when there is none. */
  open(folder: UploadFolder, name: string): Promise<StoredObject | null>;
  /** Removes a stored file; one that is gone already is not an error. */
  remove(folder: UploadFolder, name: string): Promise<void>;
  /** The names stored in a folder, sorted. */
  list(folder: UploadFolder): Promise<string[]>;

  /** Marks folder/name as written by a transaction not known to have committed yet. */
  mark(folder: UploadFolder, name: string): Promise<void>;
  unmark(folder: UploadFolder, name: string): Promise<void>;
  /** The marks made before `before`. */
  marks(before: Date): Promise<PendingMark[]>;

  /** Null when the storage answers and takes writes; else why not, in a few words. */
  ready(): Promise<string | null>;

  /** Resumable uploads in progress, and finished ones not yet taken by a record. */
  readonly tus: TusStorage;
}

/** A resumable upload as stored, for the sweep. */
export interface StoredUpload {
  id: string;
  /** The last time its data changed (a chunk, its creation). */
  modified: Date;
}

export interface TusStorage {
  /** What @tus/server writes chunks through. Ids are the public ones (`<admin>-<hex>`). */
  readonly datastore: DataStore;
  /** The first `bytes` bytes of an upload (for the content check). */
  head(id: string, bytes: number): Promise<Uint8Array>;
  /** Makes a finished upload the stored file folder/name, without reading it here, and forgets the upload. */
  moveInto(id: string, folder: UploadFolder, name: string): Promise<void>;
  /** Removes an upload in whatever state it is; one that is gone already is not an error. */
  remove(id: string): Promise<void>;
  /** Every upload stored. */
  list(): Promise<StoredUpload[]>;
}
