/**
 * Unsent changes that survive the browser, as the screens reach them:
 * persistent storage and how much of the quota is used, the file of unsent changes saved and
 * loaded. Loaded on demand (the outbox screen, a full disk, sign-out with changes waiting).
 */
import { isQuotaError } from '../../db/errors';
import { readSignedInUser } from '../../db/meta';
import { gatherQueue, type LoadReport, loadSavedQueue } from '../../db/saved-queue/gather-and-load';
import {
  decodeSavedQueue,
  encodeSavedQueue,
  SavedQueueError,
  savedQueueFileName,
} from '../../db/saved-queue/saved-queue-file';
import { changeSaved } from '../sync-runner';
import { db } from '../window-context';

export type { LoadReport };
export { SavedQueueError };

export const LOAD_STORAGE_FULL =
  'This device is out of storage space, so nothing was loaded. Free some space and try again.';

export interface StorageStatus {
  /** Whether the browser keeps this site's data until the user removes it; null: cannot tell. */
  persisted: boolean | null;
  usage: number | null;
  quota: number | null;
}

export async function readStorageStatus(): Promise<StorageStatus> {
  const storage = navigator.storage;
  const persisted = storage?.persisted ? await storage.persisted().catch(() => null) : null;
  const estimate = storage?.estimate ? await storage.estimate().catch(() => null) : null;
  return { persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
}

/** The file of every waiting change, ready to download, and how many it holds. */
export async function saveUnsentChanges(): Promise<{ file: File; count: number }> {
  const queue = await gatherQueue(db);
  const text = await encodeSavedQueue(queue);
  const file = new File([text], savedQueueFileName(queue.savedAt), { type: 'application/json' });
  return { file, count: queue.entries.length };
}

/** Queues a file's changes here and sends them when it can. Throws SavedQueueError with words. */
export async function loadUnsentChanges(file: Blob): Promise<LoadReport & { signedIn: string | null }> {
  const queue = await decodeSavedQueue(await file.text());
  let report: LoadReport;
  try {
    report = await loadSavedQueue(db, queue);
  } catch (error) {
    if (isQuotaError(error)) throw new SavedQueueError(LOAD_STORAGE_FULL);
    throw error;
  }
  if (report.queued > 0) changeSaved();
  return { ...report, signedIn: await readSignedInUser(db) };
}
