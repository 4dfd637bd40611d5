/**
 * Applying what a pull brought, in one transaction per entity (design brief §2): rows put,
 * deleted ids removed, the cursor moved. A row with a change still in the outbox is never
 * overwritten or removed: the administrator's change stands until the server has it.
 */
import type { EntityDescription } from '../contract/entity';
import type { LocalDb, Row } from '../db/database';
import { writeCursor } from '../db/meta';
import { pendingKeys } from '../db/queries';

export interface Pulled {
  rows: Row[];
  /** Ids the server deleted since the cursor; 'all-others' for a whole list (legacy server). */
  deleted: string[] | 'all-others';
  /** The next delta cursor; null when the server has no delta pull. */
  cursor: string | null;
}

export async function applyPulled(db: LocalDb, entity: EntityDescription, pulled: Pulled): Promise<void> {
  const table = db.rows(entity);
  const { rows, deleted, cursor } = pulled;
  await db.transaction('rw', [table, db.outbox, db.meta], async () => {
    const pending = await pendingKeys(db, entity);
    await table.bulkPut(rows.filter((r) => !pending.has(r[entity.key] as string)));
    let remove: string[];
    if (deleted === 'all-others') {
      const present = new Set(rows.map((r) => r[entity.key] as string));
      const local = (await table.toCollection().primaryKeys()) as string[];
      remove = local.filter((k) => !present.has(k));
    } else {
      remove = deleted;
    }
    // Records made here and still queued are kept; one left without an entry is an orphan.
    await table.bulkDelete(remove.filter((k) => !pending.has(k)));
    await writeCursor(db, entity.table, cursor);
  });
}
