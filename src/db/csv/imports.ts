/**
 * CSV imports on the device: the checked file is kept in the `imports` table until
 * every row is queued, and queued a slice at a time. Each slice's changes and the import's new
 * position are written in ONE transaction with the rows and their outbox entries, so a reload,
 * a sign-out or a closed tab resumes from the first row not queued, and no row is queued twice.
 *
 * Which outbox entries came from which line is kept as pairs (seq, line), one record per slice
 * (import-slices.ts), written in the slice's transaction: an entry's seq never changes (a Retry
 * gives it a new key, not a new seq), so the import can say how many rows were delivered and
 * refused, and give the refused lines back with the server's words.
 */

import Dexie from 'dexie';
import { entityByName } from '../../contract/entities';
import type { Op } from '../../contract/entity';
import { highest, lowest } from '../../contract/extremes';
import type { LocalDb } from '../database';
import { readSignedInUser } from '../meta';
import { addMany } from '../mutations/add-many';
import { queueEdits } from './import-edits';
import { type ImportSlice, SLICES_STORE } from './import-slices';

/** A row ready to queue, as the checker made it (contract/csv/check.ts). */
export interface ReadyRow {
  line: number;
  op: Op;
  key?: string;
  values: Record<string, string>;
  status?: string;
  /** A row without an ID about an existing record, found by its e-mail. */
  matched?: boolean;
}

export interface ImportRecord {
  id: string;
  entity: string;
  /** SHA-256 of the file's bytes, hex. */
  hash: string;
  fileName: string;
  /** Rows to queue. */
  total: number;
  /** Index of the first row not queued. (The entries queued: import-slices.ts.) */
  position: number;
  state: 'queueing' | 'queued';
  startedAt: number;
  queuedAt?: number;
  /** Rows the preview left out for their problems. */
  skipped?: number;
}

/**
 * The file of an import, in the same table under `{id}#file`: written once, apart from the
 * import's progress, which each slice rewrites (rewriting a 10,000-row file 40 times was most of
 * an import's time).
 */
export interface ImportFile {
  id: string;
  entity: typeof FILE;
  hash: '';
  /** The file as read (refused rows are cut from it). */
  text: string;
  rows: ReadyRow[];
  /** The rows the preview left out, with their problems. */
  skipped?: { line: number; problem: string }[];
}

const FILE = '#file';

const slicesOf = (db: LocalDb) => db.table<ImportSlice, [string, number]>(SLICES_STORE);

/**
 * A record written before local schema 9 carries the pairs its slices queued until then (and
 * keeps them: read as its first slice, at 0, below every slice queued since, which start at the
 * record's position). Read where they are rather than moved by a Dexie upgrade: an upgrade's code
 * opens with the store, on the first load's path, which has no bytes to spare.
 */
type StoredImport = ImportRecord & { seqs?: number[]; lines?: number[] };

/** What an import's slices queued (import-slices.ts), in the order they were queued. */
export async function slicesOfImport(db: LocalDb, id: string, record?: StoredImport): Promise<ImportSlice[]> {
  const stored: StoredImport | undefined = record ?? (await importsOf(db).get(id));
  const slices = await slicesOf(db)
    .where('[import+at]')
    .between([id, Dexie.minKey], [id, Dexie.maxKey], true, true)
    .toArray();
  return stored?.seqs?.length
    ? [{ import: id, at: 0, seqs: stored.seqs, lines: stored.lines ?? [] }, ...slices]
    : slices;
}

export const importsOf = (db: LocalDb) => db.table<ImportRecord, string>('imports');
const filesOf = (db: LocalDb) => db.table<ImportFile, string>('imports');
export const importFile = (db: LocalDb, id: string) => filesOf(db).get(`${id}${FILE}`);

export async function startImport(
  db: LocalDb,
  start: Pick<ImportRecord, 'id' | 'entity' | 'hash' | 'fileName' | 'startedAt'> &
    Pick<ImportFile, 'text' | 'rows' | 'skipped'>,
) {
  const { text, rows, skipped = [], ...record } = start;
  await db.transaction('rw', importsOf(db), async () => {
    await filesOf(db).put({ id: `${start.id}${FILE}`, entity: FILE, hash: '', text, rows, skipped });
    await importsOf(db).put({
      ...record,
      skipped: skipped.length,
      total: rows.length,
      position: 0,
      state: 'queueing',
    });
  });
}

/** The import of this entity still queueing, if any (resumed by its screen). */
export const unfinishedImport = async (db: LocalDb, entity: string) =>
  (await importsOf(db).where('entity').equals(entity).toArray()).find((r) => r.state === 'queueing');

/** When the same file was imported before (the newest time), or null. */
export async function importedBefore(db: LocalDb, hash: string): Promise<number | null> {
  const earlier = await importsOf(db).where('hash').equals(hash).toArray();
  return earlier.length ? highest(earlier.map((r) => r.startedAt)) : null;
}

export type SliceResult = { queued: number; total: number } | { stopped: 'signed-out' | 'gone' };

/**
 * Queues up to `max` rows from the import's position in one transaction (rows, outbox
 * entries and the new position together). Stops while nobody is signed in: a change is its
 * administrator's (rule 9), and whoever signs in next resumes it.
 */
export async function queueSlice(
  db: LocalDb,
  id: string,
  max: number,
  known?: ImportFile,
): Promise<SliceResult> {
  return db.transaction('rw', db.tables, async () => {
    // Asked together: three reads in one round trip's time, each slice.
    const [record, file, author] = await Promise.all([
      importsOf(db).get(id),
      known ?? importFile(db, id),
      readSignedInUser(db),
    ]);
    if (!record || !file) return { stopped: 'gone' as const };
    if (author === null) return { stopped: 'signed-out' as const };
    const entity = entityByName(record.entity);
    const end = Math.min(file.rows.length, record.position + max);
    const seqs: number[] = [];
    const had = new Set<number>();
    const lines: number[] = [];
    /** The seqs earlier slices queued, read only when a row's change folded into an entry. */
    let earlier: Set<number> | null = null;
    const note = async (entryId: string | null, line: number) => {
      if (!entryId) return;
      const [seq] = await db.outbox.where('id').equals(entryId).primaryKeys();
      if (seq === undefined || had.has(seq)) return;
      earlier ??= new Set((await slicesOfImport(db, id, record)).flatMap((s) => s.seqs));
      if (earlier.has(seq)) return;
      had.add(seq);
      seqs.push(seq);
      lines.push(line);
    };
    const slice = file.rows.slice(record.position, end);
    // The slice's adds in bulk (db/mutations/add-many.ts), then its edits and statuses (import-edits.ts).
    const adds = slice.filter((row) => row.op === 'add');
    const added = await addMany(
      db,
      entity,
      adds.map((row) => row.values),
      author,
    );
    const keyOf = new Map(adds.map((row, i) => [row, added.keys[i]]));
    adds.forEach((row, i) => {
      had.add(added.seqs[i]);
      seqs.push(added.seqs[i]);
      lines.push(row.line);
    });
    const addedRows = new Map(added.rows.map((row, i) => [added.keys[i], row]));
    await queueEdits(
      db,
      entity,
      slice,
      (row) => keyOf.get(row) ?? row.key,
      addedRows,
      {
        queued: (seq, line) => {
          had.add(seq);
          seqs.push(seq);
          lines.push(line);
        },
        note,
      },
      author,
    );
    const done = end >= file.rows.length;
    // What this slice adds, and the new position: two small records whatever the import's size.
    if (seqs.length) await slicesOf(db).add({ import: id, at: record.position, seqs, lines });
    await importsOf(db).put({
      ...record,
      position: end,
      ...(done ? { state: 'queued' as const, queuedAt: Date.now() } : {}),
    });
    // Queued: the rows are no longer needed; the text stays for the refused rows.
    if (done) await filesOf(db).put({ ...file, rows: [] });
    return { queued: end, total: file.rows.length };
  });
}

export interface DeliveryCount {
  /** Rows queued. */
  total: number;
  /** Rows the server answered: imported or refused. */
  delivered: number;
  imported: number;
  /** Refused lines with the server's words, in file order. */
  refused: { line: number; error: string }[];
  /** Rows the preview left out for their problems. */
  skipped: number;
}

/** How far delivery of an import's rows has come, from the outbox entries still there. */
export async function deliveryOf(db: LocalDb, record: ImportRecord): Promise<DeliveryCount> {
  const slices = await slicesOfImport(db, record.id, record);
  const lineOf = new Map<number, number>();
  for (const slice of slices) slice.seqs.forEach((seq, i) => void lineOf.set(seq, slice.lines[i]));
  const seqs = [...lineOf.keys()];
  const lines = new Set(lineOf.values());
  const waiting = new Set<number>();
  const refused = new Map<number, string>();
  if (seqs.length) {
    const low = lowest(seqs);
    const high = highest(seqs);
    await db.outbox
      .where('seq')
      .between(low, high, true, true)
      .each((entry) => {
        const line = lineOf.get(entry.seq);
        if (line === undefined) return;
        if (entry.status === 'failed') refused.set(line, entry.lastError ?? '');
        else waiting.add(line);
      });
  }
  for (const line of refused.keys()) waiting.delete(line);
  const total = lines.size;
  return {
    total,
    delivered: total - waiting.size,
    imported: total - waiting.size - refused.size,
    refused: [...refused].sort((a, b) => a[0] - b[0]).map(([line, error]) => ({ line, error })),
    skipped: record.skipped ?? 0,
  };
}
