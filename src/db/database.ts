/**
 * The local store: one Dexie table per entity (derived from the entity descriptions),
 * plus the outbox, the map from temporary to server ids, and small shared metadata
 * (pull cursors, sync state) that the window and the service worker both read.
 */
import Dexie, { type Table } from 'dexie';
import { entities } from '../contract/entities';
import { type EntityDescription, refFields } from '../contract/entity';
import type { OutboxEntry } from './outbox-entry';

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

/**
 * Bump when an entity or index is added: Dexie upgrades the stores in place and keeps
 * the data (including the outbox) of the tables that stay.
 */
export const LOCAL_SCHEMA_VERSION = 2;

export function storesFor(list: readonly EntityDescription[]): Record<string, string> {
  const stores: Record<string, string> = {
    outbox: '++seq, &id, entity, [entity+key], status',
    idmap: 'tempId, entity',
    meta: 'key',
  };
  for (const e of list) stores[e.table] = [e.key, ...refFields(e).map(([name]) => name)].join(', ');
  return stores;
}

export class LocalDb extends Dexie {
  outbox!: Table<OutboxEntry, number>;
  idmap!: Table<IdMapping, string>;
  meta!: Table<MetaRecord, string>;

  constructor(name = 'textbook-admin') {
    super(name);
    this.version(LOCAL_SCHEMA_VERSION).stores(storesFor(entities));
  }

  rows(entity: EntityDescription): Table<Row, string> {
    return this.table(entity.table);
  }
}

export function openLocalDb(name?: string): LocalDb {
  return new LocalDb(name);
}
