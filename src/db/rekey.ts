/**
 * When the server confirms an add, the record takes the server's id everywhere at once, in
 * one transaction: its row, the rows that refer to it, the later outbox entries of the same
 * record, and the id map that keeps the temporary id resolvable (rule 3). Replay confirms a
 * batch's adds together, so the work is done with bulk operations per table.
 */

import { entities, entityByName } from '../contract/entities';
import { refFields } from '../contract/entity';
import type { LocalDb } from './database';

export interface ConfirmedAdd {
  entity: string;
  tempId: string;
  serverId: string;
  /** The add's outbox entry, which leaves the outbox in the same transaction. */
  seq: number;
  /**
   * False when no queued change names the record as a parent: then no local row does either
   * (a record made offline keeps its add queued until confirmed, and a child's add cannot be
   * confirmed before its parent's), and the children's tables need no rewrite.
   */
  mayHaveChildren?: boolean;
}

/** Entities that name `entityName` in a reference field or hold its ids in a set relation. */
const childrenOf = (entityName: string) =>
  entities.filter(
    (child) =>
      refFields(child).some(([, spec]) => spec.ref === entityName) ||
      Object.values(child.relations ?? {}).some((rel) => rel.target === entityName),
  );

/** The fields of `child` naming a record of `entityName`: its refs and its sets. */
const namingFields = (child: (typeof entities)[number], entityName: string) => ({
  refs: refFields(child)
    .filter(([, spec]) => spec.ref === entityName)
    .map(([field]) => field),
  sets: Object.entries(child.relations ?? {})
    .filter(([, rel]) => rel.target === entityName)
    .map(([name]) => name),
});

export async function applyServerIds(db: LocalDb, adds: readonly ConfirmedAdd[]): Promise<void> {
  if (adds.length === 0) return;
  const kinds = [...new Set(adds.map((a) => a.entity))].map(entityByName);
  const parents = new Set(adds.filter((a) => a.mayHaveChildren !== false).map((a) => a.entity));
  const children = [...parents].flatMap(childrenOf);
  // Only the tables it touches: a transaction over every store would hold up all others.
  const tables = [db.idmap, db.outbox, ...[...kinds, ...children].map((e) => db.rows(e))];
  const serverIdOf = new Map(adds.map((a) => [`${a.entity}:${a.tempId}`, a.serverId]));

  await db.transaction('rw', [...new Set(tables)], async () => {
    await db.idmap.bulkPut(adds.map((a) => ({ tempId: a.tempId, entity: a.entity, serverId: a.serverId })));
    for (const entity of kinds) {
      const mine = adds.filter((a) => a.entity === entity.name);
      const table = db.rows(entity);
      const rows = await table.bulkGet(mine.map((a) => a.tempId));
      const found = mine.flatMap((a, i) => (rows[i] ? [{ add: a, row: rows[i] }] : []));
      await table.bulkDelete(found.map((f) => f.add.tempId));
      await table.bulkPut(found.map((f) => ({ ...f.row, [entity.key]: f.add.serverId })));
    }
    for (const a of adds) {
      if (a.mayHaveChildren === false) continue;
      for (const child of childrenOf(a.entity)) {
        const { refs, sets } = namingFields(child, a.entity);
        for (const field of refs) {
          await db
            .rows(child)
            .where(field)
            .equals(a.tempId)
            .modify({ [field]: a.serverId });
        }
        // A book added offline and assigned before the server named it.
        for (const set of sets) {
          await db
            .rows(child)
            .where(set)
            .equals(a.tempId)
            .modify((row) => {
              row[set] = (row[set] as string[]).map((id) => (id === a.tempId ? a.serverId : id));
            });
        }
      }
    }
    // Later entries of the same records (an edit queued after the add was sent).
    await db.outbox
      .where('[entity+key]')
      .anyOf(adds.map((a) => [a.entity, a.tempId]))
      .modify((entry) => {
        entry.key = serverIdOf.get(`${entry.entity}:${entry.key}`) ?? entry.key;
      });
    await db.outbox.bulkDelete(adds.map((a) => a.seq));
  });
}
