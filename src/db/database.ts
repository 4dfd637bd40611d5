/**
 * The local store: one Dexie table per entity (derived from the entity descriptions),
 * plus the outbox, the map from temporary to server ids, and small shared metadata
 * (pull cursors, sync state) that the window and the service worker both read.
 *
 * The class takes its table definitions instead of reading the descriptions itself: the
 * window's first screen opens it from the small entity catalogue (src/app/catalogue/built-catalogue.ts), the
 * service worker and the tests from the full descriptions (open.ts). Both derive the same
 * definitions with `storesFor`, and the same list index projections (list-index/).
 */
import Dexie, { type Table } from 'dexie';
import { type EntityDescription, refFields } from '../contract/entity';
import { uniqueRules } from '../contract/unique';
import { SLICES_STORE } from './csv/import-slices';
import { CHUNK_STORE, HEAD_STORE } from './list-index/chunk';
import { listIndexMiddleware } from './list-index/middleware';
import type { ListProjection } from './list-index/projection';
import type { NewEntry, OutboxEntry } from './outbox/outbox-entry';

/** A stored record: the server's columns, the key always as text. */
export type Row = Record<string, unknown>;

export interface IdMapping {
  tempId: string;
  entity: string;
  serverId: string;
}

export interface MetaRecord {
  key: string;
  value: unknown;
}

/** A read-only reference list (countries, states, a state's cities) as it was last read. */
export interface ReferenceList {
  path: string;
  items: unknown[];
  readAt: number;
}

/**
 * Bump when an entity or index is added: Dexie upgrades the stores in place and keeps
 * the data (including the outbox) of the tables that stay. tests/unit/store/local-schema.test.ts
 * fails when the stores change without a bump.
 */
export const LOCAL_SCHEMA_VERSION = 10;

/** Dexie table definitions: the outbox and its indexes, the id map, meta, one table per entity. */
export type Stores = Readonly<Record<string, string>>;

export function storesFor(list: readonly EntityDescription[]): Record<string, string> {
  const stores: Record<string, string> = {
    outbox: '++seq, &id, entity, [entity+key], status',
    idmap: 'tempId, entity',
    meta: 'key',
    // Reference lists (geography) by the path they were read from.
    reference: 'path',
    // The list index (list-index/): each entity's projected rows in chunks, column by column,
    // and a head per entity.
    [CHUNK_STORE]: '[table+col+n]',
    [HEAD_STORE]: 'table',
    // CSV imports under way or done (db/csv/imports.ts): the file, the rows left to queue, the
    // position; by the file's hash, to ask before the same file goes twice. The entries each
    // slice queued, by import and slice (db/csv/import-slices.ts).
    imports: 'id, entity, hash',
    [SLICES_STORE]: '[import+at]',
  };
  for (const e of list) {
    // Sets of ids (assigned books) get a multi-entry index: which records name a book.
    const sets = Object.keys(e.relations ?? {}).map((name) => `*${name}`);
    // The fields the list's totals count by (teachers' Disabled: the dashboard's Pending
    // Approvals, db/dashboard/dashboard-figures.ts), counted from an index instead of read row by row.
    const counted = Object.values(e.api.listTotals ?? {}).flatMap((t) =>
      'count' in t ? Object.keys(t.count) : [],
    );
    // A value unique across the entity (an e-mail) is looked up before each add (refuse-duplicates.ts).
    const unique = uniqueRules(e)
      .filter((rule) => rule.within === null)
      .map((rule) => rule.field);
    stores[e.table] = [e.key, ...refFields(e).map(([name]) => name), ...sets, ...counted, ...unique].join(
      ', ',
    );
  }
  return stores;
}

export class LocalDb extends Dexie {
  outbox!: Table<OutboxEntry, number, NewEntry>;
  idmap!: Table<IdMapping, string>;
  meta!: Table<MetaRecord, string>;
  reference!: Table<ReferenceList, string>;

  /** What the list index keeps of each entity's rows (list-index/projection.ts). */
  readonly projections: readonly ListProjection[];

  constructor(name: string, stores: Stores, projections: readonly ListProjection[]) {
    super(name);
    this.projections = projections;
    // 9: an import's entries in one record per slice (an older record keeps its own: db/csv/imports.ts);
    // teachers' status indexed.
    this.version(LOCAL_SCHEMA_VERSION).stores(stores);
    // Every write to an entity table keeps its list index in the same transaction.
    this.use(listIndexMiddleware(projections));
  }

  rows(entity: EntityDescription): Table<Row, string> {
    return this.table(entity.table);
  }
}

export const DEFAULT_DB_NAME = 'textbook-admin';
