/**
 * The device's side of FieldSpec.unique: before a change is queued, a value that another
 * record on this device already holds (among the records of the same parent, for a rule
 * `within` one) is refused with the words the server would use (contract/unique.ts), so the
 * form shows them at the field and nothing is queued that the server's unique index would
 * refuse. The device holds only what it pulled: a duplicate made elsewhere since the last pull
 * passes here and is refused by the server (409), and the change waits on the outbox screen.
 *
 * Runs inside mutate's transaction. A rule within a parent reads that parent's records through
 * the ref field's index, a rule across the entity through its field's own (reads/by-value.ts).
 */
import type { EntityDescription } from '../../contract/entity';
import { duplicateMessage, type UniqueRule, uniqueRules, uniqueValue } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { rowsHolding, rowsOfParent } from '../reads/by-value';

/** A change refused because a field's value is already another record's; `field` is where the form shows it. */
export class DuplicateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Throws DuplicateError for the first rule the values break. `current` is the record before an
 * update (null for an add): a rule whose value and parent stay as they were is not checked, so
 * a record that arrived as a duplicate can still be edited in its other fields.
 */
export async function refuseDuplicates(
  db: LocalDb,
  entity: EntityDescription,
  values: Row,
  current: Row | null,
): Promise<void> {
  for (const rule of uniqueRules(entity)) {
    const merged = { ...current, ...values };
    const value = uniqueValue(merged[rule.field], rule.caseless);
    const parent = rule.within ? uniqueValue(merged[rule.within]) : null;
    if (value === null || (rule.within && parent === null)) continue;
    if (current && value === uniqueValue(current[rule.field], rule.caseless)) {
      if (!rule.within || parent === uniqueValue(current[rule.within])) continue;
    }
    const own = current ? String(current[entity.key]) : null;
    if (await holderOf(db, entity, rule, value, parent, own))
      throw new DuplicateError(rule.field, duplicateMessage(entity, rule));
  }
}

async function holderOf(
  db: LocalDb,
  entity: EntityDescription,
  rule: UniqueRule,
  value: string,
  parent: string | null,
  own: string | null,
): Promise<boolean> {
  const same = (row: Row) =>
    String(row[entity.key]) !== own && uniqueValue(row[rule.field], rule.caseless) === value;
  const holders =
    rule.within && parent !== null
      ? await rowsOfParent(db, entity, rule.within, parent)
      : rowsHolding(db, entity, rule, value);
  return (await holders.filter(same).count()) > 0;
}
