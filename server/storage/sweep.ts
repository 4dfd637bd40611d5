/**
 * Finishes what the upload journal (server/uploads/journal.ts) could not: work left by a
 * process that died between two steps of a write, or by a storage that refused a removal.
 * - A pending mark older than PENDING_GRACE_MS: its transaction ended long ago. If the journal
 *   says it committed the file ('kept'), only the mark goes; otherwise (rolled back, or never
 *   committed) the file goes too.
 * - A 'dropped' row: the committed removal of an obsolete file, done again.
 * - A 'kept' row older than the grace: its mark is gone, the row has nothing left to tell.
 * Every step can be repeated, and processes sharing the storage may sweep at the same time.
 */

import type { Database } from '../db';
import { repeatEvery } from '../kit/upkeep';
import { requestLog } from '../ops/context';
import type { UploadFolder } from './folders';
import type { FileStorage } from './types';

/** Longer than any write transaction (a large upload moved in a bucket is a copy). */
export const PENDING_GRACE_MS = 60 * 60 * 1000;
/** A removal after the commit is normally done at once: the sweep only retries older ones. */
const DROPPED_RETRY_MS = 10 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface FilesSwept {
  /** Files removed: uncommitted ones and obsolete ones. */
  removed: number;
  /** Marks of committed files cleared. */
  cleared: number;
}

export async function sweepFiles(
  storage: FileStorage,
  db: Pick<Database, 'query'>,
  now = Date.now(),
): Promise<FilesSwept> {
  const swept: FilesSwept = { removed: 0, cleared: 0 };
  const outcomes = new Map(
    (
      await db.query<{ folder: string; name: string; outcome: string }>(
        'SELECT folder, name, outcome FROM upload_journal',
      )
    ).map((r) => [`${r.folder}/${r.name}`, r.outcome]),
  );
  const settled: { folder: string; name: string }[] = [];
  for (const mark of await storage.marks(new Date(now - PENDING_GRACE_MS))) {
    const outcome = outcomes.get(`${mark.folder}/${mark.name}`);
    if (outcome === 'kept') {
      await storage.unmark(mark.folder, mark.name);
      swept.cleared += 1;
    } else {
      await storage.remove(mark.folder, mark.name);
      await storage.unmark(mark.folder, mark.name);
      swept.removed += 1;
    }
    if (outcome) settled.push(mark);
  }
  const dropped = await db.query<{ folder: UploadFolder; name: string }>(
    `SELECT folder, name FROM upload_journal WHERE outcome = 'dropped' AND at < $1`,
    [new Date(now - DROPPED_RETRY_MS)],
  );
  for (const file of dropped) {
    if (settled.some((s) => s.folder === file.folder && s.name === file.name)) continue;
    await storage.remove(file.folder, file.name);
    swept.removed += 1;
    settled.push(file);
  }
  if (settled.length > 0)
    await db.query(
      'DELETE FROM upload_journal WHERE (folder, name) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
      [settled.map((f) => f.folder), settled.map((f) => f.name)],
    );
  await db.query(`DELETE FROM upload_journal WHERE outcome = 'kept' AND at < $1`, [
    new Date(now - PENDING_GRACE_MS),
  ]);
  return swept;
}

/** Sweeps now and every hour; returns the function that stops it (after a sweep in flight). */
export function startSweepingFiles(storage: FileStorage, db: Pick<Database, 'query'>): () => Promise<void> {
  return repeatEvery(
    SWEEP_EVERY_MS,
    () => sweepFiles(storage, db),
    (err) => requestLog().error({ err }, 'Could not sweep stored files'),
  );
}
