/**
 * The screens' door to records: list and get from the local store, parent options for
 * selects, and the one way to change data (saved locally in one transaction with its outbox
 * entry, then sent). Loaded with the screens that need it, not with the first screen.
 */
import type { EntityDescription } from '../contract/entity';
import { ruleOfRefusal } from '../contract/unique';
import type { Row } from '../db/database';
import { isQuotaError } from '../db/errors';
import { keyOrderPage } from '../db/list-engine/key-page';
import {
  type Change,
  type MutationResult,
  mutate,
  OutsideRoleError,
  RecordNotFoundError,
  StillUsedError,
  type Values,
} from '../db/mutate';
import { addSeveral } from '../db/mutations/add-several';
import { childCounts } from '../db/mutations/children';
import { DuplicateError } from '../db/mutations/refuse-duplicates';
import { choiceKeys, getRow, type ListQuery, type ListResult, pageHolding, shownPage } from '../db/queries';
import { type Option, refOptions } from '../db/reads/parent-options';
import { allWithParentNames, holders, keepServerSet, titlesOf } from '../db/reads/relation-reads';
import { resolveId } from '../db/resolve';
import { positionOf, type ShownPage } from './list-worker-client';
import { changeSaved } from './sync-runner';
import { db, loadApi } from './window-context';

export { awaitDelivery, type DeliveryOutcome } from './delivery';
export { type PageWatch, type ShownPage, watchPage } from './list-worker-client';
export type { Change, ListQuery, ListResult, MutationResult, Option, Row };

/**
 * A list's page in key order straight from the list index (its default order for most lists,
 * no search or filter), with its rows: the first paint of a list while its engine loads. Null
 * for any other query, or when the index declines (list-engine/key-page.ts).
 */
export async function quickPage(entity: EntityDescription, query: ListQuery): Promise<ShownPage | null> {
  const sort = query.sort ?? entity.list.sort;
  if (sort.field !== entity.key || query.search?.trim() || Object.keys(query.where ?? {}).length) return null;
  const projection = db.projections.find((p) => p.table === entity.table);
  if (!projection) return null;
  const pageSize = query.pageSize ?? entity.list.pageSize;
  const answer = await keyOrderPage(db, projection, { page: query.page, pageSize, dir: sort.dir });
  if (!answer) return null;
  return shownPage(db, entity, answer);
}

/**
 * The page of a list (its search and sort) that holds the record known by `id`, and the
 * record's current key; null when the list does not show it.
 */
export const pageOfRecord = (
  entity: EntityDescription,
  query: ListQuery,
  id: string,
): Promise<{ page: number; key: string } | null> => pageHolding(db, entity, query, id, positionOf);

/** The key a record has now: a temporary id once the server named the record gives the server's. */
export const currentKey = (id: string): Promise<string> => resolveId(db, id);

/** The record, `null` when it is not in the local store. */
export const getRecord = async (entity: EntityDescription, id: string): Promise<Row | null> =>
  (await getRow(db, entity, id)) ?? null;

/** Options of every parent select of a form, as the chosen values narrow them. */
export async function parentOptions(
  entity: EntityDescription,
  fields: readonly string[],
  values: Record<string, unknown>,
  cascade: boolean,
): Promise<Record<string, Option[]>> {
  const refs = fields.filter((f) => entity.fields[f]?.kind === 'ref');
  const lists = await Promise.all(refs.map((f) => refOptions(db, entity, f, values, cascade)));
  return Object.fromEntries(refs.map((f, i) => [f, lists[i]]));
}

/** Saves a change locally (it shows at once) and starts sending it. */
export async function saveChange(change: Change): Promise<MutationResult> {
  const result = await mutate(db, change);
  changeSaved();
  return result;
}

/**
 * Saves an add with several files as one record per file (book pages with several images), in
 * one local transaction, and starts sending them.
 */
export async function saveSeveral(
  entity: EntityDescription,
  values: Values,
  files: readonly Blob[],
): Promise<MutationResult[]> {
  const results = await addSeveral(db, entity, values, files);
  changeSaved();
  return results;
}

/** IndexedDB refused a write for lack of space: the screen says so in words. */
export const isStorageFull = isQuotaError;

/**
 * Why a change could not be saved on this device, when the reason is one the administrator
 * can act on (a record still used by others, one that is gone); null for anything else,
 * whose technical text is not for the screen.
 */
export function refusalReason(error: unknown): string | null {
  if (error instanceof StillUsedError || error instanceof DuplicateError || error instanceof OutsideRoleError)
    return error.message;
  if (error instanceof RecordNotFoundError) return 'This record is no longer on this device.';
  return null;
}

/** The refusal of a change outside the signed-in role ("A Viewer cannot change schools."), or null. */
export const roleRefusal = (error: unknown): string | null =>
  error instanceof OutsideRoleError ? error.message : null;

/**
 * A change refused at one of its fields before it was queued (a value another record on this
 * device holds: FieldSpec.unique), with the words the server would use; the form shows them
 * at that field. Null for any other failure.
 */
export function fieldRefusal(error: unknown): { field: string; message: string } | null {
  return error instanceof DuplicateError ? { field: error.field, message: error.message } : null;
}

/**
 * The field a refused change of this record was refused at, when the server's words name one
 * (a duplicate, contract/unique.ts): the edit form opened from the outbox shows it there, as it
 * would have shown the device's own refusal. Null when the record has no such refusal.
 */
export async function refusedField(
  entity: EntityDescription,
  key: string,
): Promise<{ field: string; message: string } | null> {
  const entries = await db.outbox.where('[entity+key]').equals([entity.name, key]).toArray();
  const refused = entries.filter((e) => e.status === 'failed').at(-1);
  const rule = refused ? ruleOfRefusal(entity, refused.lastError) : null;
  return rule && refused?.lastError ? { field: rule.field, message: refused.lastError } : null;
}

/** Every record of an entity by id with its title (sets shown by name). */
export const recordTitles = (entity: EntityDescription): Promise<Map<string, string>> => titlesOf(db, entity);

/** The names a `namesOf` select offers (Add Student's class names), sorted. */
export async function nameOptions(entity: EntityDescription): Promise<Option[]> {
  const names = [...new Set((await titlesOf(db, entity)).values())].filter(Boolean);
  return names
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .map((name) => ({ value: name, label: name }));
}

/** Whether this record's queued change met another on the server and waits for a choice. */
export const needsChoice = async (entity: EntityDescription, id: string): Promise<boolean> =>
  (await choiceKeys(db, entity, [id])).size > 0;

/** What keeps this record from being deleted: each child entity naming it, with how many. */
export const deleteBlockers = (entity: EntityDescription, id: string) => childCounts(db, entity, id);

/** How many records of each entity hold this record in a set (assigned books). */
export const setHolders = (entity: EntityDescription, id: string) => holders(db, entity, id);

/** Every record of an entity, with its parents' names (the choices of an assignment). */
export const allRecords = (entity: EntityDescription) => allWithParentNames(db, entity);

/**
 * The record's set as the server has it, kept locally, when the local store has none (a legacy
 * server's rows carry no sets) and the device is online. Answers how it went, so the screen can
 * say 'Failed to fetch assigned books' (the server refused) or 'Error fetching assigned books'
 * (no reply); 'kept' covers nothing to do (offline, or the set is on the device already).
 */
export async function fetchSetIfMissing(
  entity: EntityDescription,
  key: string,
  relation: string,
): Promise<'kept' | 'failed' | 'error'> {
  const row = await getRow(db, entity, key);
  if (!row || Array.isArray(row[relation]) || !navigator.onLine) return 'kept';
  try {
    const { readServerSet } = await import('../sync/api/read-set');
    const ids = await readServerSet(await loadApi(), entity, String(row[entity.key]), relation);
    if (!ids) return 'failed';
    await keepServerSet(db, entity, String(row[entity.key]), relation, ids);
    return 'kept';
  } catch (error) {
    console.warn('Assigned set not fetched', error);
    return 'error';
  }
}
