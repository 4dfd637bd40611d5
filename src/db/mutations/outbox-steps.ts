/**
 * The steps every change shares: who is signed in, the record as it stands and the newest entry
 * it may fold into, a new outbox entry, folding values into an unsent (or refused) one, and
 * cancelling one. They run inside mutate's one transaction (rule 1).
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { newUuid } from '../ids';
import {
  belongsTo,
  type FieldValue,
  isUnsent,
  type NewEntry,
  type OutboxEntry,
} from '../outbox/outbox-entry';
import { resolveId } from '../resolve';
import { type MutationResult, RecordNotFoundError, type Values } from './change';

/** What a change of an existing record starts from. */
export interface Existing {
  /** The record's current local key (a temporary id resolved to the server's). */
  key: string;
  row: Row;
  /** The record's entries, oldest first. */
  all: OutboxEntry[];
  /** The newest of them, when it can still be folded into. */
  last: OutboxEntry | undefined;
}

export function initialValues(entity: EntityDescription): Values {
  const out: Values = {};
  for (const [name, spec] of Object.entries(entity.fields)) out[name] = spec.initial ?? '';
  return out;
}

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

/** Queues a new entry: the change goes to the server as it is. */
export async function queue(db: LocalDb, key: string, entry: NewEntry): Promise<MutationResult> {
  await db.outbox.add(entry);
  return { key, cancelled: false, entryId: entry.id };
}

/**
 * The newest entry of a record, if it can still be folded into: never sent, or refused by
 * the server (a refusal applied nothing, so the corrected change may replace it).
 */
export async function foldableEntry(
  db: LocalDb,
  entity: EntityDescription,
  key: string,
  author: string | null,
) {
  const all = await db.outbox.where('[entity+key]').equals([entity.name, key]).sortBy('seq');
  const last = all.at(-1);
  const refused = last?.status === 'failed' && !last.confirmedAt;
  const foldable = last && (isUnsent(last) || refused) && belongsTo(last, author);
  return { all, last: foldable ? last : undefined };
}

/** The record a change of an existing one names, with its entries; refused when it is not here. */
export async function existing(
  db: LocalDb,
  entity: EntityDescription,
  given: string,
  author: string | null,
): Promise<Existing> {
  const key = await resolveId(db, given);
  const row = await db.rows(entity).get(key);
  if (!row) throw new RecordNotFoundError(entity, key);
  return { key, row, ...(await foldableEntry(db, entity, key, author)) };
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

/** Folds the change into an earlier entry of the record: nothing new is queued. */
export async function fold(
  db: LocalDb,
  key: string,
  entry: OutboxEntry,
  values: Values,
): Promise<MutationResult> {
  return { key, cancelled: false, entryId: await foldInto(db, entry, values) };
}

/** An unsent change undone before it went: it leaves the outbox, nothing is sent. */
export async function cancel(db: LocalDb, entry: OutboxEntry, key: string): Promise<MutationResult> {
  await db.outbox.delete(entry.seq);
  return { key, cancelled: true, entryId: null };
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
