/**
 * An add with several files, one record each (FieldSpec.several: Add Book Pages with several
 * images): one local record and one outbox entry per file, all in ONE transaction, numbered
 * before they are saved the way the server numbers them (several-files.ts): from the number
 * given upward, or after the highest number among this device's records of the same parent.
 * Each record then travels as its own add with its own number, so the order of delivery
 * cannot change the numbers.
 */

import type { EntityDescription } from '../../contract/entity';
import { highest as highestOf } from '../../contract/extremes';
import { severalField, severalNumbers } from '../../contract/several-files';
import type { LocalDb } from '../database';
import { type MutationResult, mutate, type Values } from '../mutate';

export async function addSeveral(
  db: LocalDb,
  entity: EntityDescription,
  values: Values,
  files: readonly Blob[],
): Promise<MutationResult[]> {
  const found = severalField(entity);
  if (!found) throw new Error(`${entity.name} takes one file per record`);
  const { field, several } = found;
  return db.transaction('rw', db.tables, async () => {
    const numbering = several.numbering;
    let numbers: (number | null)[] = files.map(() => null);
    if (numbering) {
      const raw = values[numbering.field];
      const given = raw === '' || raw === null || raw === undefined ? null : Number(raw);
      let highest: number | null = null;
      if (given === null) {
        const siblings = await db
          .rows(entity)
          .where(numbering.within)
          .equals(String(values[numbering.within] ?? ''))
          .toArray();
        const taken = siblings.map((r) => Number(r[numbering.field])).filter((n) => Number.isFinite(n));
        highest = taken.length > 0 ? highestOf(taken) : null;
      }
      numbers = severalNumbers(Math.max(1, files.length), given, highest);
    }
    const results: MutationResult[] = [];
    const each = files.length > 0 ? files : [null];
    for (const [i, file] of each.entries()) {
      const own: Values = { ...values, [field]: file ?? '' };
      if (numbering) own[numbering.field] = numbers[i];
      results.push(await mutate(db, { op: 'add', entity, values: own }));
    }
    return results;
  });
}
