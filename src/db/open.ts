/** The local store with every described entity's table: for the service worker and tests. */
import { entities } from '../contract/entities';
import { DEFAULT_DB_NAME, LocalDb, storesFor } from './database';
import { listProjections } from './list-index/projection';

export function openLocalDb(name = DEFAULT_DB_NAME): LocalDb {
  return new LocalDb(name, storesFor(entities), listProjections(entities));
}
