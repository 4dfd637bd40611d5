/**
 * An add: a new record under a temporary id, with its add entry. A single document (About Us)
 * keeps its one fixed key instead, and a change of it that waits takes the new values.
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb } from '../database';
import { newTempId } from '../ids';
import type { MutationResult, Values } from './change';
import { fold, foldableEntry, initialValues, newEntry, queue } from './outbox-steps';
import { namesLaterRecord } from './queue-order';
import { refuseDuplicates } from './refuse-duplicates';

export async function addRecord(
  db: LocalDb,
  entity: EntityDescription,
  values: Values,
  author: string | null,
): Promise<MutationResult> {
  if (entity.single) return addSingle(db, entity, entity.single.id, values, author);
  await refuseDuplicates(db, entity, values, null);
  const key = newTempId();
  await db.rows(entity).put({ ...initialValues(entity), ...values, [entity.key]: key });
  return queue(db, key, newEntry(author, entity, 'add', key, { ...values }, null));
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
  if (last && foldable && (last.op === 'add' || last.op === 'update')) return fold(db, key, last, values);
  return queue(db, key, newEntry(author, entity, 'add', key, { ...values }, null));
}
