/**
 * Records of one entity that share a value their description declares unique across it (an
 * e-mail): only records that reached the server before its unique index can (the server refuses
 * new ones). Read from the field's index (database.ts): its keys, then the rows of each shared
 * value, never the whole table.
 */
import type { EntityDescription } from '../../contract/entity';
import { type UniqueRule, uniqueValue } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { rowsHolding } from './by-value';

export interface SharedValue {
  /** In lower case for a caseless rule. */
  value: string;
  /** Oldest first (by key). */
  rows: Row[];
}

export async function sharedValues(
  db: LocalDb,
  entity: EntityDescription,
  rule: UniqueRule,
  most: number,
): Promise<SharedValue[]> {
  const table = db.rows(entity);
  const counts = new Map<string, number>();
  for (const key of await table.orderBy(rule.field).keys()) {
    const value = uniqueValue(key, rule.caseless);
    if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const shared = [...counts]
    .filter(([, n]) => n > 1)
    .map(([value]) => value)
    .sort()
    .slice(0, most);
  const byKey = (a: Row, b: Row) =>
    String(a[entity.key]).localeCompare(String(b[entity.key]), undefined, { numeric: true });
  return Promise.all(
    shared.map(async (value) => {
      return { value, rows: (await rowsHolding(db, entity, rule, value).toArray()).sort(byKey) };
    }),
  );
}
