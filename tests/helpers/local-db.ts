/**
 * A fresh local store (on fake-indexeddb) for every test of a file or describe block: opened
 * before each test and handed to `use`, closed and deleted after it.
 */
import { afterEach, beforeEach } from 'vitest';
import type { LocalDb } from '../../src/db/database';
import { openLocalDb } from '../../src/db/open';

export function freshLocalDbEach(prefix: string, use: (db: LocalDb) => void): void {
  let n = 0;
  let db: LocalDb | undefined;
  beforeEach(async () => {
    db = openLocalDb(`${prefix}-${++n}`);
    await db.open();
    use(db);
  });
  afterEach(async () => {
    db?.close();
    await db?.delete();
  });
}
