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
 * Many adds written together (an import's slice) are checked at once by `refuseDuplicateAdds`.
 */
import type { EntityDescription } from '../../contract/entity';
import { duplicateMessage, type UniqueRule, uniqueRules, uniqueValue } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { heldValues, rowsHolding, rowsOfParent } from '../reads/by-value';
import { resolveId } from '../resolve';

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

/**
 * `refuseDuplicates` for many adds written together (an import's slice: mutations/add-many.ts):
 * an add is refused when a held record or an add before it in `adds` has its value, as adding
 * them one by one would find, in the same order (row by row, each rule in turn). One indexed
 * read per rule (per parent for a rule within one) instead of one per add.
 */
export async function refuseDuplicateAdds(
  db: LocalDb,
  entity: EntityDescription,
  adds: readonly Row[],
): Promise<void> {
  const rules = uniqueRules(entity);
  if (rules.length === 0 || adds.length === 0) return;
  const taken = await Promise.all(rules.map((rule) => takenSlots(db, entity, rule, adds)));
  for (const values of adds)
    rules.forEach((rule, r) => {
      const slot = slotOf(rule, values, taken[r].parents);
      if (slot === null) return;
      if (taken[r].slots.has(slot)) throw new DuplicateError(rule.field, duplicateMessage(entity, rule));
      taken[r].slots.add(slot);
    });
}

/** A rule's taken places: its parent (the server's id when it has one) and value, NUL apart. */
interface TakenSlots {
  slots: Set<string>;
  /** Each parent of the adds, as the server names it. */
  parents: Map<string, string>;
}

/** Where a record's value sits for a rule, or null when it takes part in no uniqueness. */
function slotOf(rule: UniqueRule, values: Row, parents: ReadonlyMap<string, string>): string | null {
  const value = uniqueValue(values[rule.field], rule.caseless);
  if (value === null) return null;
  if (!rule.within) return `\0${value}`;
  const parent = uniqueValue(values[rule.within]);
  return parent === null ? null : `${parents.get(parent) ?? parent}\0${value}`;
}

/** The places held records take among those the adds would take. */
async function takenSlots(
  db: LocalDb,
  entity: EntityDescription,
  rule: UniqueRule,
  adds: readonly Row[],
): Promise<TakenSlots> {
  const slots = new Set<string>();
  const parents = new Map<string, string>();
  if (!rule.within) {
    const values = adds.flatMap((v) => uniqueValue(v[rule.field], rule.caseless) ?? []);
    for (const held of await heldValues(db, entity, rule, [...new Set(values)])) {
      const value = uniqueValue(held, rule.caseless);
      if (value !== null) slots.add(`\0${value}`);
    }
    return { slots, parents };
  }
  const within = rule.within;
  for (const parent of new Set(adds.flatMap((v) => uniqueValue(v[within]) ?? []))) {
    parents.set(parent, await resolveId(db, parent));
    for (const row of await (await rowsOfParent(db, entity, within, parent)).toArray()) {
      const slot = slotOf(rule, row, parents);
      if (slot !== null) slots.add(slot);
    }
  }
  return { slots, parents };
}
