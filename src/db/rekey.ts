/**
 * When the server confirms an add, the record takes the server's id everywhere at once, in
 * one transaction: its row, the rows that refer to it, the later outbox entries of the same
 * record, and the id map that keeps the temporary id resolvable (rule 3). Replay confirms a
 * batch's adds together, so the work is done with bulk operations per table.
 */

import { entities, entityByName } from '../contract/entities';
import { refFields } from '../contract/entity';
import type { LocalDb } from './database';
import { TEMP_PREFIX } from './ids';

export interface ConfirmedAdd {
  entity: string;
  tempId: string;
  serverId: string;
  /** The add's outbox entry, which leaves the outbox in the same transaction. */
  seq: number;
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
  const children = [...new Set(kinds.flatMap((k) => childrenOf(k.name)))];
  // Only the tables it touches: a transaction over every store would hold up all others.
  const tables = [db.idmap, db.outbox, ...[...kinds, ...children].map((e) => db.rows(e))];
  /** The server's id by entity and temporary id. */
  const serverIdOf = new Map(adds.map((a) => [`${a.entity}:${a.tempId}`, a.serverId]));
  const named = (entity: string, id: unknown) => serverIdOf.get(`${entity}:${id}`);

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
    // Rows naming the records: per child field, one look at the rows that name any temporary
    // id there (only records made offline and not yet confirmed, so few), instead of one per
    // confirmed add; a row naming none of this group's is left as it is. Fields of one table
    // one after another (each rewrites whole rows), the tables side by side.
    await Promise.all(
      children.map(async (child) => {
        for (const parent of kinds) {
          const { refs, sets } = namingFields(child, parent.name);
          for (const field of refs)
            await db
              .rows(child)
              .where(field)
              .startsWith(TEMP_PREFIX)
              .modify((row) => {
                const id = named(parent.name, row[field]);
                if (id === undefined) return false;
                row[field] = id;
              });
          // A book added offline and assigned before the server named it (a row naming two
          // such books comes twice: the same rewrite twice).
          for (const set of sets)
            await db
              .rows(child)
              .where(set)
              .startsWith(TEMP_PREFIX)
              .modify((row) => {
                const ids = row[set] as string[];
                if (!ids.some((id) => named(parent.name, id) !== undefined)) return false;
                row[set] = ids.map((id) => named(parent.name, id) ?? id);
              });
        }
      }),
    );
    // Later entries of the same records (an edit queued after the add was sent): all the
    // lookups at once, each by the record's [entity+key].
    const own = new Set(adds.map((a) => a.seq));
    const ofRecords = await Promise.all(
      adds.map((a) => db.outbox.where('[entity+key]').equals([a.entity, a.tempId]).primaryKeys()),
    );
    const later = ofRecords.flat().filter((seq) => !own.has(seq));
    if (later.length > 0)
      await db.outbox
        .where('seq')
        .anyOf(later)
        .modify((entry) => {
          entry.key = named(entry.entity, entry.key) ?? entry.key;
        });
    await db.outbox.bulkDelete([...own]);
  });
}
