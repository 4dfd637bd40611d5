/**
 * A set relation replaced whole (the books assigned to a school): a later choice replaces an
 * unsent one, unless it names a record added after that one (rule 3); back to where it began,
 * nothing is sent.
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import type { NewEntry } from '../outbox/outbox-entry';
import type { MutationResult } from './change';
import { cancel, type Existing, fold, newEntry, queue, snapshot } from './outbox-steps';
import { setNamesLaterRecord } from './queue-order';

export async function relateRecord(
  db: LocalDb,
  entity: EntityDescription,
  relation: string,
  chosen: readonly string[],
  { key, row, last }: Existing,
  author: string | null,
): Promise<MutationResult> {
  const spec = entity.relations?.[relation];
  if (!spec) throw new Error(`${entity.name} has no relation ${relation}`);
  const ids = [...new Set(chosen)];
  const current = (row[relation] as readonly string[] | undefined) ?? [];
  await db.rows(entity).put({ ...row, [relation]: ids });
  const set = { [relation]: ids };
  if (last?.op === 'relate' && last.relation === relation) {
    if (sameSet(last.base?.[relation], ids)) return cancel(db, last, key);
    if (!(await setNamesLaterRecord(db, spec.target, ids, last.seq))) return fold(db, key, last, set);
  }
  if (sameSet(current, ids)) return { key, cancelled: true, entryId: null };
  return queue(db, key, relateEntry(author, entity, relation, key, ids, row));
}

/** The entry of a set replaced on a record that has nothing to fold into: based on the record as it stood. */
export function relateEntry(
  author: string | null,
  entity: EntityDescription,
  relation: string,
  key: string,
  ids: readonly string[],
  row: Row,
): NewEntry {
  return { ...newEntry(author, entity, 'relate', key, { [relation]: ids }, snapshot(row)), relation };
}

function sameSet(a: unknown, b: readonly string[]): boolean {
  const list = Array.isArray(a) ? (a as string[]) : [];
  return list.length === b.length && b.every((id) => list.includes(id));
}
