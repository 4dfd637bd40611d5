/**
 * Reads for the screens: lists with search, sort and paging run on the local store (design
 * brief §2), and single records by any id they were ever known by.
 *
 * A list's page is answered by the list engine (list-engine/), which holds each entity's list
 * index in memory: which keys, in which order, how many in all. The page's rows themselves
 * (ten to a hundred) are then read by key, with their parents' current names and whether a
 * change of theirs waits in the outbox. The window runs the engine in its list worker
 * (src/list-worker.ts); these functions run it in place, for code without a window and tests.
 */

import Dexie from 'dexie';
import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import type { LocalDb, Row } from './database';
import { ListEngine, type PageAnswer, type PageQuery } from './list-engine/engine';
import type { ShownPage } from './list-engine/protocol';
import { engineSpecs } from './list-engine/spec';
import { type KnownNames, parentTables, withParentNames } from './reads/join-parent-names';
import { resolveId } from './resolve';

export type { PageAnswer, PageQuery };
export type ListQuery = PageQuery;

export interface ListResult {
  rows: Row[];
  /** Rows matching the search, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  /** Keys of the page's records with a change not yet confirmed by the server. */
  pending: Set<string>;
  /** Of those, the keys whose change met another on the server and waits for a choice. */
  choices: Set<string>;
}

/** The keys of the entity's records with a change waiting (of these `keys` only, when given). */
export async function pendingKeys(
  db: LocalDb,
  entity: EntityDescription,
  keys?: readonly string[],
): Promise<Set<string>> {
  if (keys?.length === 0) return new Set();
  // Index keys only: the entries themselves (payloads, files) are not read.
  const index = db.outbox.where('[entity+key]');
  const pairs = await (keys
    ? index.anyOf(keys.map((k) => [entity.name, k]))
    : index.between([entity.name, Dexie.minKey], [entity.name, Dexie.maxKey])
  ).keys();
  return new Set(pairs.map((pair) => (pair as unknown as [string, string])[1]));
}

/** Of these keys, those whose queued change is a conflict waiting for the administrator's choice. */
export async function choiceKeys(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<Set<string>> {
  // Conflicts are few: the index finds them, and only this entity's are kept.
  const conflicts = await db.outbox.where('status').equals('conflict').toArray();
  const asked = new Set(keys);
  return new Set(conflicts.filter((e) => e.entity === entity.name && asked.has(e.key)).map((e) => e.key));
}

/**
 * The rows of these keys in this order (those still there), with parents' names (those
 * `known` from memory, the others read) and pending marks.
 */
export function pageRows(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
  known?: KnownNames,
): Promise<{ rows: Row[]; pending: Set<string>; choices: Set<string> }> {
  return db.transaction('r', [db.rows(entity), db.outbox, ...parentTables(db, entity, known)], async () => {
    // Asked together: each wait for IndexedDB's answer is a round trip to the browser's
    // storage, and a page's answer (a keystroke's, a click's) waits for all of them.
    const [read, pending] = await Promise.all([
      db.rows(entity).bulkGet([...keys]),
      pendingKeys(db, entity, keys),
    ]);
    const found = read.filter((row) => row !== undefined);
    // A choice is asked of a pending row only: a page with none (nearly every one) asks nothing more.
    const [rows, choices] = await Promise.all([
      withParentNames(db, entity, found, known),
      pending.size > 0 ? choiceKeys(db, entity, [...pending]) : new Set<string>(),
    ]);
    return { rows, pending, choices };
  });
}

/** A page of the list engine as a list shows it: its rows read by key, with their marks. */
export async function shownPage(
  db: LocalDb,
  entity: EntityDescription,
  answer: PageAnswer,
  known?: KnownNames,
): Promise<ShownPage> {
  const { rows, pending, choices } = await pageRows(db, entity, answer.keys, known);
  return { ...answer, rows, pending: [...pending], choices: [...choices] };
}

const engines = new WeakMap<LocalDb, ListEngine>();

/** The list engine over this store, in place (the window uses its worker's instead). */
export function listEngineOf(db: LocalDb): ListEngine {
  let engine = engines.get(db);
  if (!engine) {
    engine = new ListEngine(db, engineSpecs(entities));
    engines.set(db, engine);
  }
  return engine;
}

export async function listRows(db: LocalDb, entity: EntityDescription, q: ListQuery): Promise<ListResult> {
  const answer = await listEngineOf(db).page(entity.name, q, true);
  const { rows, pending, choices } = await pageRows(db, entity, answer.keys);
  return { rows, total: answer.total, page: answer.page, pageSize: answer.pageSize, pending, choices };
}

/**
 * The page of a list query (its search and sort; its page is ignored) that holds the record
 * known by `id` (any id it was ever known by), and the record's current key; null when no
 * row of the query is that record. A form opens the list where the record it added is.
 * `position`: the engine that places it (the window's worker; `placeInPlace` in tests). Not a
 * default argument: the window's screens would then carry the whole engine beside its worker.
 */
/** Where a record stands among a query's rows (0-based), -1 when the query does not show it. */
export type Place = (entity: string, query: ListQuery, key: string) => Promise<number>;

/** Places records with an engine in place over this store (tests, Node). */
export const placeInPlace =
  (db: LocalDb): Place =>
  (entity, query, key) =>
    listEngineOf(db).position(entity, query, key);

export async function pageHolding(
  db: LocalDb,
  entity: EntityDescription,
  q: ListQuery,
  id: string,
  position: Place,
): Promise<{ page: number; key: string } | null> {
  const everyPage = { ...q, page: undefined };
  let key = await resolveId(db, id);
  let at = await position(entity.name, everyPage, key);
  if (at < 0) {
    // The server may have named the record between the two reads (a record added online is
    // sent at once): its temporary key is gone from the rows, so ask again by its new key.
    const named = await resolveId(db, id);
    if (named !== key) {
      key = named;
      at = await position(entity.name, everyPage, key);
    }
  }
  if (at < 0) return null;
  return { page: Math.floor(at / (q.pageSize ?? entity.list.pageSize)) + 1, key };
}

export async function getRow(db: LocalDb, entity: EntityDescription, id: string): Promise<Row | undefined> {
  const key = await resolveId(db, id);
  return db.rows(entity).get(key);
}
