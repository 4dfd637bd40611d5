/**
 * The records of one parent that already hold given values of a field (FieldSpec.flagUsed), read
 * through the parent's index as every ref field is indexed (database.ts).
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { rowsOfParent } from './by-value';

/** By value, the first record of `parent` other than `own` whose `field` holds it. */
export async function holdersOfValues(
  db: LocalDb,
  entity: EntityDescription,
  rule: { field: string; within: string },
  parent: string,
  values: readonly string[],
  own: string | null,
): Promise<Map<string, Row>> {
  const holders = new Map<string, Row>();
  if (values.length === 0) return holders;
  const wanted = new Set(values);
  const rows = await (await rowsOfParent(db, entity, rule.within, parent))
    .filter((row) => String(row[entity.key]) !== own && wanted.has(String(row[rule.field] ?? '')))
    .toArray();
  for (const row of rows) {
    const value = String(row[rule.field]);
    if (!holders.has(value)) holders.set(value, row);
  }
  return holders;
}
