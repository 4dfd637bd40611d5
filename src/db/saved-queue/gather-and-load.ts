/**
 * Unsent changes carried to another device: what a file of unsent changes
 * holds is gathered here, and loading one queues its changes in this device's outbox. The
 * file's text is saved-queue-file.ts.
 *
 * Exactly once across devices rests on rule 2: each change keeps its id, which travels as its
 * Idempotency-Key (a batch item's key), and the server answers a repeat from the reply it
 * stored. Whichever device sends a change first applies it; the other's send is answered from
 * the store, so its copy is confirmed (an add learns the same server id) and leaves its outbox.
 * For that, both copies must stay the very same request: both are marked `copied`, so neither
 * is folded into nor dropped unsent afterwards (isUnsent).
 *
 * What loading decides:
 * - Another administrator signed in here: the changes keep their author (a change of no
 *   recorded author takes the administrator who saved the file) and wait for that author's
 *   sign-in on this device (rule 9): keys are per administrator on the server, so sending them
 *   under another sign-in would apply them a second time.
 * - The same file again, or a file saved on this device: a change already in this outbox, or
 *   an add this device has already delivered (its temporary id is in the id map), is not
 *   queued again; a file whose every change is here already is reported as such.
 * - This device's own waiting changes to the same record: the loaded ones queue after them
 *   (rule 3 keeps the order per record); an edit whose field the device's own change set to
 *   another value comes back as a conflict to settle on the outbox screen (rule 5).
 * - The rows the changes are about come along as that device had them: records added offline
 *   under their temporary ids (unique across devices), so that lists show them and later
 *   changes can name them, and records edited there, for a device that has not read them
 *   yet. A row this device already has is left as it is (the next pull after delivery brings
 *   the server's).
 */
import { entities } from '../../contract/entities';
import { deviceId } from '../audit/device-id';
import type { LocalDb, Row } from '../database';
import { isQuotaError } from '../errors';
import { isTempId } from '../ids';
import { readSignedInUser } from '../meta';
import type { NewEntry } from '../outbox/outbox-entry';
import { type SavedEntry, type SavedQueue, SavedQueueError, type SavedRow } from './saved-queue-file';

export const UNKNOWN_CHANGES =
  'This file holds changes this version of the app does not know. Nothing was loaded.';

const entityOf = (name: string) => entities.find((e) => e.name === name);

/** Every temporary id a value names (ids in fields, in sets of ids). */
function tempIdsIn(value: unknown, into: Set<string>): void {
  if (isTempId(value)) into.add(value);
  else if (Array.isArray(value)) for (const v of value) tempIdsIn(v, into);
  else if (typeof value === 'object' && value !== null && !(value instanceof Blob))
    for (const v of Object.values(value)) tempIdsIn(v, into);
}

/**
 * Everything waiting in this device's outbox, with what it needs, ready for the file; the
 * entries are marked `copied` in the same transaction, so that none of them changes after it
 * left in a file. On a full disk (the moment the file matters most) the mark cannot be written:
 * the file is made all the same, read in one transaction, and the entries stay unmarked (no
 * change can be folded into them while nothing can be written).
 */
export async function gatherQueue(db: LocalDb, now = Date.now()): Promise<SavedQueue> {
  const device = await deviceId(db).catch(() => 'unknown');
  const savedBy = await readSignedInUser(db);
  const queue = (mark: boolean) =>
    db.transaction(mark ? 'rw' : 'r', db.tables, async (): Promise<SavedQueue> => {
      const stored = await db.outbox.orderBy('seq').toArray();
      const named = new Set<string>();
      const entries: SavedEntry[] = stored.map(({ seq: _seq, uploads: _u, unreachable: _r, ...entry }) => {
        tempIdsIn([entry.key, entry.payload, entry.base, entry.sent], named);
        return { ...entry, copied: true };
      });
      const rows: SavedRow[] = [];
      const seen = new Set<string>();
      for (const e of stored) {
        const entity = entityOf(e.entity);
        if (!entity || seen.has(`${e.entity}:${e.key}`)) continue;
        seen.add(`${e.entity}:${e.key}`);
        const row = await db.rows(entity).get(e.key);
        if (row) rows.push({ entity: entity.name, row });
      }
      const idmap = (await db.idmap.bulkGet([...named])).filter((m) => m !== undefined);
      if (mark)
        await db.outbox
          .where('seq')
          .anyOf(stored.filter((e) => !e.copied).map((e) => e.seq))
          .modify({ copied: true });
      return { savedAt: now, device, savedBy, entries, rows, idmap };
    });
  try {
    return await queue(true);
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    return queue(false);
  }
}

export interface LoadReport {
  /** Changes queued now. */
  queued: number;
  /** Changes of the file already here, or already delivered from here. */
  alreadyHere: number;
  /** The authors other than the signed-in administrator whose changes now wait for them. */
  waitingFor: string[];
}

/** An entry of the file as this device queues it: its key, author and files kept. */
function asQueued(saved: SavedEntry, savedBy: string | null): NewEntry {
  const author = saved.author ?? savedBy ?? undefined;
  const entry: NewEntry = {
    ...saved,
    // Nothing is on its way from this device; the other device's attempts still count (a
    // change tried there may have reached the server, so it is sent exactly as it was).
    status: saved.status === 'sending' ? 'pending' : saved.status,
    nextAttemptAt: 0,
    copied: true,
  };
  if (author === undefined) delete entry.author;
  else entry.author = author;
  return entry;
}

/** Queues the file's changes in this device's outbox, in one transaction. */
export async function loadSavedQueue(db: LocalDb, queue: SavedQueue): Promise<LoadReport> {
  if (queue.entries.some((e) => !entityOf(e.entity)) || queue.rows.some((r) => !entityOf(r.entity)))
    throw new SavedQueueError(UNKNOWN_CHANGES);
  return db.transaction('rw', db.tables, async () => {
    const user = await readSignedInUser(db);
    const here = new Set(
      (
        await db.outbox
          .where('id')
          .anyOf(queue.entries.map((e) => e.id))
          .toArray()
      ).map((e) => e.id),
    );
    const delivered = new Set(
      (await db.idmap.bulkGet(queue.entries.map((e) => e.key))).flatMap((m) => (m ? [m.tempId] : [])),
    );
    const fresh = queue.entries.filter((e) => !here.has(e.id) && !(e.op === 'add' && delivered.has(e.key)));
    for (const m of queue.idmap) if (!(await db.idmap.get(m.tempId))) await db.idmap.put(m);
    for (const { entity: name, row } of queue.rows) {
      const entity = entityOf(name)!;
      const key = String(row[entity.key]);
      if (delivered.has(key) || !fresh.some((e) => e.key === key)) continue;
      if (!(await db.rows(entity).get(key))) await db.rows(entity).put(row as Row);
    }
    const queued = fresh.map((e) => asQueued(e, queue.savedBy));
    await db.outbox.bulkAdd(queued);
    const waitingFor = [
      ...new Set(queued.flatMap((e) => (e.author !== undefined && e.author !== user ? [e.author] : []))),
    ];
    return { queued: queued.length, alreadyHere: queue.entries.length - fresh.length, waitingFor };
  });
}
