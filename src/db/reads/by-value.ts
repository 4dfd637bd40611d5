/**
 * Records read through an index instead of the whole table: those of one parent (every ref
 * field is indexed, database.ts) and those holding a value of a field unique across the
 * entity (indexed too: an e-mail among 100,000 students).
 */
import type { Collection } from 'dexie';
import type { EntityDescription } from '../../contract/entity';
import type { UniqueRule } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { resolveId } from '../resolve';

/** The records naming `parent` in `within`, which may be a temporary id the server has named since. */
export async function rowsOfParent(
  db: LocalDb,
  entity: EntityDescription,
  within: string,
  parent: string,
): Promise<Collection<Row, string>> {
  const parentKeys = [...new Set([parent, await resolveId(db, parent)])];
  return db.rows(entity).where(within).anyOf(parentKeys);
}

/** The records whose `rule.field` holds `value` (without case for a caseless rule). */
export function rowsHolding(
  db: LocalDb,
  entity: EntityDescription,
  rule: Pick<UniqueRule, 'field' | 'caseless'>,
  value: string,
): Collection<Row, string> {
  const index = db.rows(entity).where(rule.field);
  return rule.caseless ? index.equalsIgnoreCase(value) : index.equals(value);
}

/**
 * The values of `rule.field` that records hold among these (any case for a caseless rule), read
 * from the field's index alone: one read for many values (an import's slice), no rows.
 */
export async function heldValues(
  db: LocalDb,
  entity: EntityDescription,
  rule: Pick<UniqueRule, 'field' | 'caseless'>,
  values: readonly string[],
): Promise<unknown[]> {
  if (values.length === 0) return [];
  const index = db.rows(entity).where(rule.field);
  return (rule.caseless ? index.anyOfIgnoreCase([...values]) : index.anyOf([...values])).keys();
}
