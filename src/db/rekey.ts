/**
 * When the server confirms an add, the record takes the server's id everywhere at once, in
 * one transaction: its row, the rows that refer to it, the later outbox entries of the same
 * record, and the id map that keeps the temporary id resolvable (rule 3).
 */

import { entities, entityByName } from '../contract/entities';
import { refFields } from '../contract/entity';
import type { LocalDb } from './database';

export async function applyServerId(
  db: LocalDb,
  entityName: string,
  tempId: string,
  serverId: string,
  confirmedSeq: number,
): Promise<void> {
  const entity = entityByName(entityName);
  await db.transaction('rw', db.tables, async () => {
    await db.idmap.put({ tempId, entity: entity.name, serverId });
    const table = db.rows(entity);
    const row = await table.get(tempId);
    if (row) {
      await table.delete(tempId);
      await table.put({ ...row, [entity.key]: serverId });
    }
    for (const child of entities) {
      for (const [field, spec] of refFields(child)) {
        if (spec.ref !== entity.name) continue;
        await db
          .rows(child)
          .where(field)
          .equals(tempId)
          .modify({ [field]: serverId });
      }
    }
    await db.outbox.where('[entity+key]').equals([entity.name, tempId]).modify({ key: serverId });
    await db.outbox.delete(confirmedSeq);
  });
}
