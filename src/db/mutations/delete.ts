/**
 * A delete. A record that others still name stays (the server would refuse it too). A record
 * whose add never reached the server goes with its entries and nothing is sent; otherwise its
 * unapplied edits are dropped where nothing depends on them, and a delete entry is queued.
 * Another administrator's waiting changes are theirs: kept, and this delete goes after them.
 */
import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { setLinks } from '../../contract/still-used';
import type { LocalDb, Row } from '../database';
import { belongsTo, type FieldValue, isUnsent, type NewEntry } from '../outbox/outbox-entry';
import { type MutationResult, StillUsedError } from './change';
import { stillUsedOnDevice } from './children';
import { type Existing, newEntry, queue, snapshot } from './outbox-steps';
import { queuedAfter } from './queue-order';

export async function deleteRecord(
  db: LocalDb,
  entity: EntityDescription,
  { key, row, all }: Existing,
  author: string | null,
): Promise<MutationResult> {
  const refusal = await stillUsedOnDevice(db, entity, key);
  if (refusal) throw new StillUsedError(refusal);
  await db.rows(entity).delete(key);
  await dropFromSets(db, entity, [key]);
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
  return queue(db, key, deleteEntry(author, entity, key, row));
}

/** The entry of a delete: no values, the record as it stood as its base. */
export function deleteEntry(
  author: string | null,
  entity: EntityDescription,
  key: string,
  row: Row,
): NewEntry {
  return newEntry(author, entity, 'delete', key, {}, snapshot(row));
}

/**
 * Deleted records leave every set that held them (a book its assignments), as the server does
 * in the same transaction; the owners' own changes are not queued for it. One look per set for
 * all of `keys` (a bulk delete's slice).
 */
export async function dropFromSets(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  const gone = new Set(keys);
  for (const { owner, relation } of setLinks(entity, entities)) {
    await db
      .rows(owner)
      .where(relation)
      .anyOf([...gone])
      .distinct()
      .modify((row) => {
        row[relation] = (row[relation] as string[]).filter((id) => !gone.has(id));
      });
  }
}

/**
 * A record that will never reach the server (its add was cancelled) leaves the sets queued for
 * it too: otherwise they would wait for an id that never comes. Such an entry cannot have been
 * sent (it waited for that id), so rewriting it keeps rule 2.
 */
async function dropFromQueuedSets(db: LocalDb, entity: EntityDescription, key: string): Promise<void> {
  const relations = new Set(setLinks(entity, entities).map((l) => `${l.owner.name}/${l.relation}`));
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
