/**
 * Many rows at once: one change per row, each the change a single action
 * makes (`mutate`: the status toggle, a delete, the whole set of assigned books), so each
 * travels through the legacy endpoint of that action and is delivered once under its own
 * Idempotency-Key. Rows are queued in slices, each slice ONE read-write transaction (a
 * transaction per row cost about as much as the row itself), with a pause between slices so
 * the page keeps answering (no task near 100 ms) and the list engine catches up.
 *
 * A bulk change hands back what undoing it needs: set and relate are undone by the opposite
 * change through `mutate`, which cancels an unsent entry that would go back to where it began
 * (nothing is sent) and queues the opposite otherwise, as a second single toggle would; a
 * delete still unsent is taken out of the queue and its row put back, a delete already sent
 * stays (the server may have applied it).
 *
 * Rows that may not change (a school that teachers still belong to, a row gone meanwhile) are
 * reported with the reason, in the words a single delete uses; the others go on.
 */
import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { childLinks } from '../../contract/still-used';
import type { LocalDb, Row } from '../database';
import { readCursor, readSignedInUser, writeCursor } from '../meta';
import { mutate } from '../mutate';
import { stillUsedManyOnDevice, stillUsedOnDevice } from '../mutations/children';
import { deleteEntry } from '../mutations/delete';
import { quietKeys, RowBatch, rowsByKey } from '../mutations/quiet-rows';
import { relateEntry } from '../mutations/relate';
import { refuseOutsideRole } from '../mutations/role-guard';
import { setEntry } from '../mutations/set-field';
import type { FieldValue, OutboxEntry } from '../outbox/outbox-entry';
import { resolveId } from '../resolve';

export type BulkChange =
  /** An entity action on every row (status Enabled / Disabled). */
  | { op: 'set'; action: string; value: FieldValue }
  /** Books added to (or taken from) each row's set; the rest of each set stays. */
  | { op: 'add-to-set' | 'remove-from-set'; relation: string; ids: readonly string[] }
  | { op: 'delete' };

/** A row that could not change, and why. */
export interface BulkRefusal {
  key: string;
  name: string;
  reason: string;
}

/** What undoing a bulk change needs: each changed row as it was before. */
export interface BulkUndo {
  entity: string;
  change: BulkChange;
  /** set / relate: the row's key and the value (or set) it had. */
  before: { key: string; value: FieldValue | undefined; after: FieldValue }[];
  /**
   * delete: the entry that carries it (null when the row's add had never been sent: nothing
   * went), the row as it was, and the row's unsent entries the delete took out of the queue.
   */
  deleted: { key: string; entryId: string | null; row: Row; dropped: OutboxEntry[] }[];
  /** Pull cursors when the change was made: moved meanwhile, the table is read again after an undo. */
  cursors: Record<string, string | null>;
}

export interface BulkOutcome {
  /** Rows changed (an entry queued, folded into an unsent one, or cancelled with it). */
  changed: number;
  /** Rows that already were as asked (nothing queued). */
  unchanged: number;
  refused: BulkRefusal[];
  undo: BulkUndo;
}

export interface SliceOptions {
  /** Rows per transaction. */
  slice?: number;
  /** Told after each slice: rows done of all. */
  onProgress?: (done: number, total: number) => void;
}

/** Rows per transaction: large enough that the transaction's cost is spread, small enough to stay under ~50 ms. */
export const BULK_SLICE = 100;

/** Lets other work in (the page, the list worker's answers) between slices. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The tables whose pulls a delete's undo may have to read again: the entity's and its sets' owners'. */
function cursorTables(entity: EntityDescription): string[] {
  const owners = entities.filter((owner) =>
    Object.values(owner.relations ?? {}).some((rel) => rel.target === entity.name),
  );
  return [entity.table, ...owners.map((o) => o.table)];
}

function setOf(row: Row, relation: string): readonly string[] | undefined {
  const value = row[relation];
  return Array.isArray(value) ? value.map(String) : undefined;
}

function nextSet(change: BulkChange, current: readonly string[]): readonly string[] {
  if (change.op === 'add-to-set') return [...new Set([...current, ...change.ids])];
  if (change.op === 'remove-from-set') return current.filter((id) => !change.ids.includes(id));
  return current;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** What a set or set change does to one row: the field, its value before and after. */
interface RowPlan {
  field: string;
  before: FieldValue | undefined;
  after: FieldValue;
}

/**
 * What `change` makes of `row`, or null when the row already is as asked (nothing to queue).
 * One rule for both ways a row is queued: in bulk (applySlice) and through mutate (applyOne).
 */
function planFor(
  entity: EntityDescription,
  change: Exclude<BulkChange, { op: 'delete' }>,
  row: Row,
): RowPlan | null {
  if (change.op === 'set') {
    const action = entity.actions?.[change.action];
    if (!action) throw new Error(`${entity.name} has no action ${change.action}`);
    const before = row[action.field] as FieldValue | undefined;
    if (String(before ?? '') === String(change.value ?? '')) return null;
    return { field: action.field, before, after: change.value };
  }
  if (!entity.relations?.[change.relation])
    throw new Error(`${entity.name} has no relation ${change.relation}`);
  const before = setOf(row, change.relation);
  const ids = [...nextSet(change, before ?? [])];
  if (sameSet(ids, before ?? [])) return null;
  return { field: change.relation, before: before as FieldValue | undefined, after: ids };
}

/** Queues `change` for every key, a slice per transaction. */
export async function applyBulk(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
  change: BulkChange,
  options: SliceOptions = {},
): Promise<BulkOutcome> {
  const size = options.slice ?? BULK_SLICE;
  const cursors: Record<string, string | null> = {};
  if (change.op === 'delete')
    for (const table of cursorTables(entity)) cursors[table] = await readCursor(db, table);
  const outcome: BulkOutcome = {
    changed: 0,
    unchanged: 0,
    refused: [],
    undo: { entity: entity.name, change, before: [], deleted: [], cursors },
  };
  for (let from = 0; from < keys.length; from += size) {
    const slice = keys.slice(from, from + size);
    // The slice's outcome joins the whole only once its transaction committed.
    const part: BulkOutcome = {
      ...outcome,
      changed: 0,
      unchanged: 0,
      refused: [],
      undo: { ...outcome.undo, before: [], deleted: [] },
    };
    // An async scope: Dexie keeps its transaction across awaits that are not the store's only
    // for an async scope function, and only for a few of them in a row (db/mutations/quiet-rows.ts, flush).
    await db.transaction('rw', db.tables, async () => {
      await refuseOutsideRole(db, entity);
      await applySlice(db, entity, slice, change, part);
    });
    outcome.changed += part.changed;
    outcome.unchanged += part.unchanged;
    outcome.refused.push(...part.refused);
    outcome.undo.before.push(...part.undo.before);
    outcome.undo.deleted.push(...part.undo.deleted);
    options.onProgress?.(Math.min(keys.length, from + size), keys.length);
    if (from + size < keys.length) await pause();
  }
  return outcome;
}

/**
 * One slice, in the caller's transaction. Rows that no queued change names (db/mutations/quiet-rows.ts) are
 * changed, related or deleted together: exactly what `mutate` does for such a row (the row
 * written or deleted, a new entry with the row as its base), in one bulk write of the rows and
 * one of the entries. Rows with a queued change (folding, cancelling, dropping) and rows under a
 * temporary id go through `mutate` one by one, after what was gathered before them is written,
 * so the entries keep the order of the one-by-one path.
 */
async function applySlice(
  db: LocalDb,
  entity: EntityDescription,
  slice: readonly string[],
  change: BulkChange,
  out: BulkOutcome,
): Promise<void> {
  const quiet = await rowsByKey(db, entity, await quietKeys(db, entity, slice));
  const author = await readSignedInUser(db);
  // A delete's "still used" rule, asked for the slice at once: the single delete's words.
  const refusals =
    change.op === 'delete' && !namesItself(entity)
      ? await stillUsedManyOnDevice(db, entity, [...quiet.keys()])
      : null;
  const batch = new RowBatch(db, entity);
  for (const given of slice) {
    const row = quiet.get(given);
    if (!row || batch.has(given) || (change.op === 'delete' && !refusals)) {
      if (!batch.empty) await batch.flush();
      await applyOne(db, entity, given, change, out);
      continue;
    }
    if (change.op === 'delete') {
      const reason = refusals?.get(given);
      if (reason) {
        out.refused.push({ key: given, name: String(row[entity.title] ?? given), reason });
        continue;
      }
      const entry = deleteEntry(author, entity, given, row);
      batch.delete(given, entry);
      out.undo.deleted.push({ key: given, entryId: entry.id, row, dropped: [] });
      out.changed++;
      continue;
    }
    const plan = planFor(entity, change, row);
    if (!plan) {
      out.unchanged++;
      continue;
    }
    const entry =
      change.op === 'set'
        ? setEntry(author, entity, change.action, given, change.value, row)
        : relateEntry(author, entity, change.relation, given, plan.after as string[], row);
    batch.put(given, { ...row, [plan.field]: plan.after }, entry);
    out.undo.before.push({ key: given, value: plan.before, after: plan.after });
    out.changed++;
  }
  if (!batch.empty) await batch.flush();
}

/**
 * An entity whose rows can name rows of their own kind: deleting one row of a slice may free
 * another, so each row's "still used" is asked after the rows before it went (one by one).
 */
function namesItself(entity: EntityDescription): boolean {
  return childLinks(entity, entities).some((link) => link.child.name === entity.name);
}

async function applyOne(
  db: LocalDb,
  entity: EntityDescription,
  given: string,
  change: BulkChange,
  out: BulkOutcome,
): Promise<void> {
  const key = await resolveId(db, given);
  const row = await db.rows(entity).get(key);
  if (!row) {
    out.refused.push({ key, name: key, reason: `This ${entity.names.one} is no longer on this device.` });
    return;
  }
  const name = String(row[entity.title] ?? key);
  if (change.op !== 'delete') {
    const plan = planFor(entity, change, row);
    if (!plan) {
      out.unchanged++;
      return;
    }
    await mutate(
      db,
      change.op === 'set'
        ? { op: 'set', entity, key, action: change.action, value: change.value }
        : { op: 'relate', entity, key, relation: change.relation, ids: plan.after as string[] },
    );
    out.undo.before.push({ key, value: plan.before, after: plan.after });
    out.changed++;
    return;
  }
  // The rule a single delete keeps (mutate refuses the same), asked first so that one row
  // that may not go does not abort the slice's transaction.
  const reason = await stillUsedOnDevice(db, entity, key);
  if (reason) {
    out.refused.push({ key, name, reason });
    return;
  }
  const queued = await db.outbox.where('[entity+key]').equals([entity.name, key]).toArray();
  const { entryId } = await mutate(db, { op: 'delete', entity, key });
  // Only a row with changes queued can have had some taken away (one read less per row).
  const left = queued.length
    ? new Set((await db.outbox.where('[entity+key]').equals([entity.name, key]).toArray()).map((e) => e.seq))
    : null;
  const dropped = left ? queued.filter((e) => !left.has(e.seq)) : [];
  out.undo.deleted.push({ key, entryId, row, dropped });
  out.changed++;
}

export interface UndoOutcome {
  /** Rows back as they were (their unsent changes cancelled, or the opposite change queued). */
  undone: number;
  /** Rows left as they are: a delete already sent, or a row changed again since. */
  kept: number;
}

/** Undoes a bulk change, a slice per transaction. */
export async function undoBulk(
  db: LocalDb,
  entity: EntityDescription,
  undo: BulkUndo,
  options: SliceOptions = {},
): Promise<UndoOutcome> {
  const size = options.slice ?? BULK_SLICE;
  const result: UndoOutcome = { undone: 0, kept: 0 };
  const { change } = undo;
  const total = undo.before.length + undo.deleted.length;
  for (let from = 0; from < undo.before.length; from += size) {
    const slice = undo.before.slice(from, from + size);
    const part = await db.transaction('rw', db.tables, async () => {
      const counts = { undone: 0, kept: 0 };
      for (const item of slice) (await undoOne(db, entity, change, item)) ? counts.undone++ : counts.kept++;
      return counts;
    });
    result.undone += part.undone;
    result.kept += part.kept;
    options.onProgress?.(Math.min(total, from + size), total);
    await pause();
  }
  let restored = 0;
  for (let from = 0; from < undo.deleted.length; from += size) {
    const slice = undo.deleted.slice(from, from + size);
    const part = await db.transaction('rw', db.tables, async () => restoreDeleted(db, entity, slice));
    restored += part;
    result.undone += part;
    result.kept += slice.length - part;
    options.onProgress?.(Math.min(total, undo.before.length + from + size), total);
    await pause();
  }
  // Pulls moved past the server's changes to these rows while their deletes waited: read
  // those tables again from the start (what a discard does), only when a pull ran meanwhile.
  if (restored > 0)
    for (const [table, cursor] of Object.entries(undo.cursors))
      if ((await readCursor(db, table)) !== cursor) await writeCursor(db, table, null);
  return result;
}

async function undoOne(
  db: LocalDb,
  entity: EntityDescription,
  change: BulkChange,
  item: BulkUndo['before'][number],
): Promise<boolean> {
  const key = await resolveId(db, item.key);
  const row = await db.rows(entity).get(key);
  if (!row) return false;
  if (change.op === 'set') {
    const field = entity.actions?.[change.action]?.field ?? '';
    // Changed again since (by hand, by a pull): that later value stays.
    if (String(row[field] ?? '') !== String(item.after ?? '')) return false;
    await mutate(db, { op: 'set', entity, key, action: change.action, value: item.value ?? '' });
    return true;
  }
  if (change.op === 'delete') return false;
  const now = setOf(row, change.relation) ?? [];
  if (!sameSet(now, (item.after as readonly string[]) ?? [])) return false;
  const before = (item.value as readonly string[] | undefined) ?? [];
  await mutate(db, { op: 'relate', entity, key, relation: change.relation, ids: before });
  return true;
}

/**
 * A delete not yet sent leaves the queue and its row comes back with the unsent changes the
 * delete took away (same `seq`, so the same place in the queue, as an undone discard); a delete
 * sent (or being sent) stays. A slice's rows come back in one bulk write (the list index writes
 * each chunk once), its entries in one read, one delete and one put. Answers how many came back.
 */
async function restoreDeleted(
  db: LocalDb,
  entity: EntityDescription,
  items: readonly BulkUndo['deleted'][number][],
): Promise<number> {
  const ids = items.flatMap((item) => (item.entryId === null ? [] : [item.entryId]));
  const entries = new Map(
    (ids.length ? await db.outbox.where('id').anyOf(ids).toArray() : []).map((e) => [e.id, e]),
  );
  const unsent = (item: BulkUndo['deleted'][number]) => {
    if (item.entryId === null) return true;
    const entry = entries.get(item.entryId);
    return entry?.status === 'pending' && entry.attempts === 0;
  };
  const back = items.filter(unsent);
  const deletes = back.flatMap((item) => {
    const entry = item.entryId === null ? undefined : entries.get(item.entryId);
    return entry ? [entry.seq] : [];
  });
  const dropped = back.flatMap((item) => item.dropped);
  const present = new Set(
    dropped.length
      ? await db.outbox
          .where('seq')
          .anyOf(dropped.map((e) => e.seq))
          .primaryKeys()
      : [],
  );
  const missing = dropped.filter((e) => !present.has(e.seq));
  if (deletes.length) await db.outbox.bulkDelete(deletes);
  if (missing.length) await db.outbox.bulkPut(missing);
  if (back.length) await db.rows(entity).bulkPut(back.map((item) => item.row));
  return back.length;
}
