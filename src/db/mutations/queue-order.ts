/**
 * Whether folding a change into an earlier entry would break the queue's order (rule 3): the
 * entry would go before a change it depends on, or after one that depends on it.
 */

import { entities } from '../../contract/entities';
import { contentImageEntity } from '../../contract/entities/content-image';
import { type EntityDescription, refFields } from '../../contract/entity';
import { contentImageRefs } from '../../contract/rich-text/rich-text-images';
import type { LocalDb } from '../database';
import { isTempId } from '../ids';
import type { Values } from './change';

/**
 * Whether a change queued after `seq` names the record as its parent (a book added to a
 * series): it was made against the record as it stood then, so a later edit of the record
 * must reach the server after it, not fold into an entry that goes before it.
 */
export async function namedByLaterEntry(
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
export async function namesLaterRecord(db: LocalDb, entity: EntityDescription, values: Values, seq: number) {
  const named: [entity: string, id: unknown][] = [
    ...refFields(entity).map(([field, spec]): [string, unknown] => [spec.ref, values[field]]),
    // Images waiting for their upload, named in rich text (contract/rich-text/rich-text-images.ts).
    ...contentImageRefs(entity, values).map((id): [string, unknown] => [contentImageEntity.name, id]),
  ];
  for (const [name, v] of named) if (await addedAfter(db, name, v, seq)) return true;
  return false;
}

/**
 * Whether a replaced set names a record whose add was queued after `seq` (a book added after
 * the unsent assignment it would fold into): that assignment would then wait for a later add.
 */
export async function setNamesLaterRecord(db: LocalDb, target: string, ids: readonly string[], seq: number) {
  for (const id of ids) if (await addedAfter(db, target, id, seq)) return true;
  return false;
}

/** Whether the record named `id` is one still to be created by an add queued after `seq`. */
async function addedAfter(db: LocalDb, entity: string, id: unknown, seq: number) {
  if (!isTempId(id)) return false;
  const add = await db.outbox.where('[entity+key]').equals([entity, id]).first();
  return add !== undefined && add.seq > seq;
}

/** Whether an entry of another record than `entity`/`key` was queued after `seq`. */
export async function queuedAfter(db: LocalDb, seq: number, entity: EntityDescription, key: string) {
  const other = await db.outbox
    .where('seq')
    .above(seq)
    .filter((e) => e.entity !== entity.name || e.key !== key)
    .first();
  return other !== undefined;
}
