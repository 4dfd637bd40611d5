/**
 * The one way the app changes data. Each change writes the record and its outbox entry in
 * ONE read-write transaction, so a crash can never leave one without the other (rule 1).
 *
 * Unsent entries of the same record are folded here (rule 6): an edit of a record whose
 * add or edit has never been sent merges into that entry, and deleting a record whose add
 * was never sent removes both and sends nothing; a delete drops the record's unsent edits when
 * nothing else was queued after them. An entry that has been sent at least once
 * may already be applied on the server, so it is never changed (rule 2).
 *
 * Each entry is stamped with the administrator signed in on the device (issue 12), read in
 * the same transaction; only their own entries (or those without an author) are folded into
 * or dropped: another administrator's waiting changes stay theirs, and a change made on top
 * of them is queued after them.
 */

import { contentImageRefs } from '../contract/content-images';
import { entities } from '../contract/entities';
import { contentImageEntity } from '../contract/entities/content-image';
import { type EntityDescription, refFields, wireName } from '../contract/entity';
import { stillUsedBy } from '../contract/messages';
import { firstChildEntity } from './children';
import type { LocalDb, Row } from './database';
import { isTempId, newTempId, newUuid } from './ids';
import { readSignedInUser } from './meta';
import { belongsTo, type FieldValue, isUnsent, type NewEntry, type OutboxEntry } from './outbox-entry';
import { resolveId } from './resolve';
import { refuseDuplicates } from './unique';

export type Values = Record<string, FieldValue>;

export type Change =
  | { op: 'add'; entity: EntityDescription; values: Values }
  | { op: 'update'; entity: EntityDescription; key: string; values: Values }
  | { op: 'delete'; entity: EntityDescription; key: string }
  /** An entity action: one field through its own endpoint (e.g. the popular toggle). */
  | { op: 'set'; entity: EntityDescription; key: string; action: string; value: FieldValue }
  /** A set relation replaced whole (the books assigned to a school). */
  | { op: 'relate'; entity: EntityDescription; key: string; relation: string; ids: readonly string[] };

export interface MutationResult {
  /** The record's local key (a new temporary id for an add). */
  key: string;
  /** True when nothing needs sending any more (an offline add deleted before it was sent). */
  cancelled: boolean;
  /** The outbox entry that carries the change (possibly an earlier one it was folded into). */
  entryId: string | null;
}

export class RecordNotFoundError extends Error {
  constructor(entity: EntityDescription, key: string) {
    super(`${entity.names.One} ${key} is not in the local store`);
  }
}

/** A record other records still name as their parent; the message is the server's. */
export class StillUsedError extends Error {}

function initialValues(entity: EntityDescription): Values {
  const out: Values = {};
  for (const [name, spec] of Object.entries(entity.fields)) out[name] = spec.initial ?? '';
  return out;
}

/** A new outbox entry (exported for bulk.ts, which queues many rows' entries at once). */
export function newEntry(
  author: string | null,
  entity: EntityDescription,
  op: OutboxEntry['op'],
  key: string,
  payload: Values,
  base: Values | null,
): NewEntry {
  const now = Date.now();
  return {
    id: newUuid(),
    ...(author === null ? {} : { author }),
    entity: entity.name,
    op,
    key,
    payload,
    base,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: now,
    lastError: null,
  };
}

/**
 * The newest entry of a record, if it can still be folded into: never sent, or refused by
 * the server (a refusal applied nothing, so the corrected change may replace it).
 */
async function foldableEntry(db: LocalDb, entity: EntityDescription, key: string, author: string | null) {
  const all = await db.outbox.where('[entity+key]').equals([entity.name, key]).sortBy('seq');
  const last = all.at(-1);
  const refused = last?.status === 'failed' && !last.confirmedAt;
  const foldable = last && (isUnsent(last) || refused) && belongsTo(last, author);
  return { all, last: foldable ? last : undefined };
}

/**
 * Whether a change queued after `seq` names the record as its parent (a book added to a
 * series): it was made against the record as it stood then, so a later edit of the record
 * must reach the server after it, not fold into an entry that goes before it.
 */
async function namedByLaterEntry(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
  seq: number,
): Promise<boolean> {
  const later = await db.outbox.where('seq').above(seq).toArray();
  return later.some((e) => {
    const child = entities.find((x) => x.name === e.entity);
    return (
      child !== undefined &&
      refFields(child).some(
        ([field, spec]) => spec.ref === entity.name && keys.includes(String(e.payload[field])),
      )
    );
  });
}

/**
 * Whether the values name a record whose add was queued after `seq`: folding them into that
 * earlier entry would make it wait for a later one, against the queue's order (rule 3).
 */
async function namesLaterRecord(db: LocalDb, entity: EntityDescription, values: Values, seq: number) {
  const named: [entity: string, id: unknown][] = [
    ...refFields(entity).map(([field, spec]): [string, unknown] => [spec.ref, values[field]]),
    // Images waiting for their upload, named in rich text (contract/content-images.ts).
    ...contentImageRefs(entity, values).map((id): [string, unknown] => [contentImageEntity.name, id]),
  ];
  for (const [name, v] of named) {
    if (!isTempId(v)) continue;
    const add = await db.outbox.where('[entity+key]').equals([name, v]).first();
    if (add && add.seq > seq) return true;
  }
  return false;
}

/**
 * Merges values into an entry. A refused entry starts over with a new Idempotency-Key: the
 * server stored its refusal under the old one.
 */
async function foldInto(db: LocalDb, entry: OutboxEntry, values: Values): Promise<string> {
  const restart =
    entry.status === 'failed'
      ? {
          id: newUuid(),
          status: 'pending' as const,
          attempts: 0,
          lastError: null,
          nextAttemptAt: 0,
          sent: undefined,
        }
      : {};
  await db.outbox.update(entry.seq, { payload: { ...entry.payload, ...values }, ...restart });
  return restart.id ?? entry.id;
}

export async function mutate(db: LocalDb, change: Change): Promise<MutationResult> {
  const { entity } = change;
  const table = db.rows(entity);
  // Every table: a delete looks for children in the other entities' tables.
  return db.transaction('rw', db.tables, async () => {
    const author = await readSignedInUser(db);
    if (change.op === 'add' && entity.single)
      return addSingle(db, entity, entity.single.id, change.values, author);
    if (change.op === 'add') {
      await refuseDuplicates(db, entity, change.values, null);
      const key = newTempId();
      await table.put({ ...initialValues(entity), ...change.values, [entity.key]: key });
      const entry = newEntry(author, entity, 'add', key, { ...change.values }, null);
      await db.outbox.add(entry);
      return { key, cancelled: false, entryId: entry.id };
    }

    const key = await resolveId(db, change.key);
    const row = await table.get(key);
    if (!row) throw new RecordNotFoundError(entity, key);
    const { all, last } = await foldableEntry(db, entity, key, author);

    if (change.op === 'update') {
      await refuseDuplicates(db, entity, change.values, row);
      await table.put({ ...row, ...change.values, [entity.key]: key });
      const foldable =
        last &&
        !(await namesLaterRecord(db, entity, change.values, last.seq)) &&
        !(await namedByLaterEntry(db, entity, [change.key, key], last.seq));
      if (last && foldable && (last.op === 'add' || last.op === 'update')) {
        return { key, cancelled: false, entryId: await foldInto(db, last, change.values) };
      }
      const entry = newEntry(author, entity, 'update', key, { ...change.values }, snapshot(row));
      await db.outbox.add(entry);
      return { key, cancelled: false, entryId: entry.id };
    }

    if (change.op === 'set') {
      const action = entity.actions?.[change.action];
      if (!action) throw new Error(`${entity.name} has no action ${change.action}`);
      const value = { [action.field]: change.value };
      await table.put({ ...row, ...value });
      // Folds into an unsent add that sends the field, or an unsent set of the same action.
      const field = entity.fields[action.field];
      const sentOnAdd = Boolean(field && wireName(field, 'add'));
      if (last?.op === 'add' && sentOnAdd) {
        return { key, cancelled: false, entryId: await foldInto(db, last, value) };
      }
      if (last?.op === 'set' && last.action === change.action) {
        // Toggled back to what it was before the first unsent toggle: nothing to send.
        // Compared as text: a page number may be held as a number or as typed.
        if (String(last.base?.[action.field] ?? '') === String(change.value ?? ''))
          return cancel(db, last, key);
        return { key, cancelled: false, entryId: await foldInto(db, last, value) };
      }
      const entry = { ...newEntry(author, entity, 'set', key, value, snapshot(row)), action: change.action };
      await db.outbox.add(entry);
      return { key, cancelled: false, entryId: entry.id };
    }

    if (change.op === 'relate') {
      if (!entity.relations?.[change.relation])
        throw new Error(`${entity.name} has no relation ${change.relation}`);
      const ids = [...new Set(change.ids)];
      const current = (row[change.relation] as readonly string[] | undefined) ?? [];
      await table.put({ ...row, [change.relation]: ids });
      const set = { [change.relation]: ids };
      // The set is replaced whole: a later choice replaces an unsent one; back to where it
      // began, nothing is sent.
      if (last?.op === 'relate' && last.relation === change.relation) {
        if (sameSet(last.base?.[change.relation], ids)) return cancel(db, last, key);
        return { key, cancelled: false, entryId: await foldInto(db, last, set) };
      }
      if (sameSet(current, ids)) return { key, cancelled: true, entryId: null };
      const entry = {
        ...newEntry(author, entity, 'relate', key, set, snapshot(row)),
        relation: change.relation,
      };
      await db.outbox.add(entry);
      return { key, cancelled: false, entryId: entry.id };
    }

    // Delete. A record that others still name stays (the server would refuse it too).
    const child = await firstChildEntity(db, entity, key);
    if (child) throw new StillUsedError(stillUsedBy(entity.names, child.names));
    await table.delete(key);
    await dropFromSets(db, entity, key);
    // Another administrator's waiting changes are theirs: kept, and this delete goes after them.
    const unapplied = all.filter(
      (e) => (isUnsent(e) || (e.status === 'failed' && !e.confirmedAt)) && belongsTo(e, author),
    );
    // An add that never reached the server's data means the server has no record: the add
    // and everything after it go, and nothing is sent.
    if (unapplied.some((e) => e.op === 'add')) {
      await db.outbox.bulkDelete(unapplied.map((e) => e.seq));
      await dropFromQueuedSets(db, entity, key);
      return { key, cancelled: true, entryId: null };
    }
    // Unapplied edits go too, unless a change of another record was queued after them: it may
    // count on them (a series deleted after its book moved away, a name freed for another
    // record), and the delete queued now would reach the server after that change.
    if (unapplied.length && !(await queuedAfter(db, unapplied[0].seq, entity, key))) {
      await db.outbox.bulkDelete(unapplied.map((e) => e.seq));
    }

    const entry = newEntry(author, entity, 'delete', key, {}, snapshot(row));
    await db.outbox.add(entry);
    return { key, cancelled: false, entryId: entry.id };
  });
}

/**
 * A deleted record leaves every set that held it (a book its assignments), as the server does
 * in the same transaction; the owners' own changes are not queued for it.
 */
async function dropFromSets(db: LocalDb, entity: EntityDescription, key: string): Promise<void> {
  for (const owner of entities) {
    for (const [name, rel] of Object.entries(owner.relations ?? {})) {
      if (rel.target !== entity.name) continue;
      await db
        .rows(owner)
        .where(name)
        .equals(key)
        .modify((row) => {
          row[name] = (row[name] as string[]).filter((id) => id !== key);
        });
    }
  }
}

/**
 * A record that will never reach the server (its add was cancelled) leaves the sets queued for
 * it too: otherwise they would wait for an id that never comes. Such an entry cannot have been
 * sent (it waited for that id), so rewriting it keeps rule 2.
 */
async function dropFromQueuedSets(db: LocalDb, entity: EntityDescription, key: string): Promise<void> {
  const relations = new Set(
    entities.flatMap((owner) =>
      Object.entries(owner.relations ?? {})
        .filter(([, rel]) => rel.target === entity.name)
        .map(([name]) => `${owner.name}/${name}`),
    ),
  );
  if (relations.size === 0) return;
  const without = (set: FieldValue | undefined) =>
    Array.isArray(set) ? (set as readonly string[]).filter((id) => id !== key) : set;
  await db.outbox
    .filter((e) => e.op === 'relate' && relations.has(`${e.entity}/${e.relation}`))
    .modify((e) => {
      const name = e.relation ?? '';
      if (Array.isArray(e.payload[name])) e.payload[name] = without(e.payload[name]) as string[];
      if (e.base && Array.isArray(e.base[name])) e.base[name] = without(e.base[name]) as string[];
    });
}

/**
 * An add of a single document (About Us): its one row keeps the fixed key, since the server
 * never names it; an unsent add or edit of it takes the new values instead of a second entry.
 */
async function addSingle(
  db: LocalDb,
  entity: EntityDescription,
  key: string,
  values: Values,
  author: string | null,
): Promise<MutationResult> {
  const table = db.rows(entity);
  const row = (await table.get(key)) ?? initialValues(entity);
  await table.put({ ...row, ...values, [entity.key]: key });
  const { last } = await foldableEntry(db, entity, key, author);
  const foldable = last && !(await namesLaterRecord(db, entity, values, last.seq));
  if (last && foldable && (last.op === 'add' || last.op === 'update'))
    return { key, cancelled: false, entryId: await foldInto(db, last, values) };
  const entry = newEntry(author, entity, 'add', key, { ...values }, null);
  await db.outbox.add(entry);
  return { key, cancelled: false, entryId: entry.id };
}

/** An unsent change undone before it went: it leaves the outbox, nothing is sent. */
async function cancel(db: LocalDb, entry: OutboxEntry, key: string): Promise<MutationResult> {
  await db.outbox.delete(entry.seq);
  return { key, cancelled: true, entryId: null };
}

function sameSet(a: unknown, b: readonly string[]): boolean {
  const list = Array.isArray(a) ? (a as string[]) : [];
  return list.length === b.length && b.every((id) => list.includes(id));
}

/** Whether an entry of another record than `entity`/`key` was queued after `seq`. */
async function queuedAfter(db: LocalDb, seq: number, entity: EntityDescription, key: string) {
  const other = await db.outbox
    .where('seq')
    .above(seq)
    .filter((e) => e.entity !== entity.name || e.key !== key)
    .first();
  return other !== undefined;
}

/** The record's own values, as the base of an edit (rule 5): plain values, files and sets of ids. */
export function snapshot(row: Row): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v instanceof Blob || typeof v !== 'object') out[k] = v as FieldValue;
    else if (Array.isArray(v)) out[k] = v.map(String);
  }
  return out;
}
