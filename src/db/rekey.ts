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
  /**
   * False when no queued change names the record as a parent: then no local row does either
   * (a record made offline keeps its add queued until confirmed, and a child's add cannot be
   * confirmed before its parent's), and the children's tables need no rewrite.
   */
  mayHaveChildren = true,
): Promise<void> {
  const entity = entityByName(entityName);
  // Only the tables it touches: a transaction over every store would hold up all others.
  const children = mayHaveChildren
    ? entities.filter((child) => refFields(child).some(([, spec]) => spec.ref === entity.name))
    : [];

  const tables = [db.idmap, db.outbox, db.rows(entity), ...children.map((c) => db.rows(c))];
  await db.transaction('rw', tables, async () => {
    await db.idmap.put({ tempId, entity: entity.name, serverId });
    const table = db.rows(entity);
    const row = await table.get(tempId);
    if (row) {
      await table.delete(tempId);
      await table.put({ ...row, [entity.key]: serverId });
    }
    for (const child of children) {
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
