/**
 * An entity action: one field through its own endpoint (the popular toggle, a page number). It
 * folds into an unsent add that sends the field, or an unsent set of the same action; toggled
 * back to where it began, nothing is sent.
 */
import { type EntityDescription, wireName } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import type { FieldValue, NewEntry } from '../outbox/outbox-entry';
import type { MutationResult } from './change';
import { cancel, type Existing, fold, newEntry, queue, snapshot } from './outbox-steps';

export async function setField(
  db: LocalDb,
  entity: EntityDescription,
  actionName: string,
  given: FieldValue,
  { key, row, last }: Existing,
  author: string | null,
): Promise<MutationResult> {
  const action = entity.actions?.[actionName];
  if (!action) throw new Error(`${entity.name} has no action ${actionName}`);
  const value = { [action.field]: given };
  await db.rows(entity).put({ ...row, ...value });
  if (last?.op === 'add' && foldsIntoAdd(entity, actionName)) return fold(db, key, last, value);
  if (last?.op === 'set' && last.action === actionName) {
    // Toggled back to what it was before the first unsent toggle: nothing to send.
    // Compared as text: a page number may be held as a number or as typed.
    if (String(last.base?.[action.field] ?? '') === String(given ?? '')) return cancel(db, last, key);
    return fold(db, key, last, value);
  }
  return queue(db, key, setEntry(author, entity, actionName, key, given, row));
}

/** Whether the action's field travels with an add: an action on a record whose add is unsent folds into it. */
export function foldsIntoAdd(entity: EntityDescription, actionName: string): boolean {
  const action = entity.actions?.[actionName];
  const field = action ? entity.fields[action.field] : undefined;
  return Boolean(field && wireName(field, 'add'));
}

/** The entry of an action on a record that has nothing to fold into: based on the record as it stood. */
export function setEntry(
  author: string | null,
  entity: EntityDescription,
  actionName: string,
  key: string,
  given: FieldValue,
  row: Row,
): NewEntry {
  const action = entity.actions?.[actionName];
  if (!action) throw new Error(`${entity.name} has no action ${actionName}`);
  return {
    ...newEntry(author, entity, 'set', key, { [action.field]: given }, snapshot(row)),
    action: actionName,
  };
}
