/**
 * An edit: the record takes the values, and an unsent add or edit of it takes them too (rule
 * 6), unless that would break the queue's order; otherwise a new update entry, based on the
 * record as it stood (rule 5).
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import type { NewEntry } from '../outbox/outbox-entry';
import type { MutationResult, Values } from './change';
import { type Existing, fold, newEntry, queue, snapshot } from './outbox-steps';
import { namedByLaterEntry, namesLaterRecord } from './queue-order';
import { refuseDuplicates } from './refuse-duplicates';

export async function updateRecord(
  db: LocalDb,
  entity: EntityDescription,
  /** The key the change named (a temporary id, perhaps, since replaced). */
  given: string,
  values: Values,
  { key, row, last }: Existing,
  author: string | null,
): Promise<MutationResult> {
  await refuseDuplicates(db, entity, values, row);
  await db.rows(entity).put({ ...row, ...values, [entity.key]: key });
  const foldable =
    last &&
    !(await namesLaterRecord(db, entity, values, last.seq)) &&
    !(await namedByLaterEntry(db, entity, [given, key], last.seq));
  if (last && foldable && (last.op === 'add' || last.op === 'update')) return fold(db, key, last, values);
  return queue(db, key, updateEntry(author, entity, key, values, row));
}

/** The entry of an edit that has nothing to fold into: the values, based on the record as it stood (rule 5). */
export function updateEntry(
  author: string | null,
  entity: EntityDescription,
  key: string,
  values: Values,
  row: Row,
): NewEntry {
  return newEntry(author, entity, 'update', key, { ...values }, snapshot(row));
}
