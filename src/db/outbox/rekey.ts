/**
 * When the server confirms an add, the record takes the server's id everywhere at once, in
 * one transaction: its row, the rows that refer to it, the later outbox entries of the same
 * record, and the id map that keeps the temporary id resolvable (rule 3). Replay confirms a
 * batch's adds together, so the work is done with bulk operations per table.
 */

import { entities, entityByName } from '../../contract/entities';
import { refFields } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { TEMP_PREFIX } from '../ids';
import { pickFromRange } from '../reads/read-many';
import type { OutboxEntry } from './outbox-entry';

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
      const wanted = new Set(mine.map((a) => a.tempId));
      const rows = await pickFromRange(
        table.where(entity.key).startsWith(TEMP_PREFIX),
        wanted,
        (row) => row[entity.key] as string,
        async () => (await table.bulkGet([...wanted])).filter((row) => row !== undefined),
      );
      const rowOf = new Map(rows.map((row) => [row[entity.key] as string, row]));
      const found = mine.flatMap((add) => {
        const row = rowOf.get(add.tempId);
        return row ? [{ add, row }] : [];
      });
      await table.bulkDelete(found.map((f) => f.add.tempId));
      await table.bulkPut(found.map((f) => ({ ...f.row, [entity.key]: f.add.serverId })));
    }
    // Rows naming the records: per child field, one read of the rows that name any temporary
    // id there (only records made offline and not yet confirmed), instead of one look per
    // confirmed add; those naming one of this group's are rewritten. Fields of one table one
    // after another (each rewrites whole rows), the tables side by side.
    await Promise.all(
      children.map(async (child) => {
        const table = db.rows(child);
        for (const parent of kinds) {
          const { refs, sets } = namingFields(child, parent.name);
          for (const field of refs) {
            const naming = await table.where(field).startsWith(TEMP_PREFIX).toArray();
            const changed = naming.flatMap((row) => {
              const id = named(parent.name, row[field]);
              return id === undefined ? [] : [{ ...row, [field]: id }];
            });
            if (changed.length > 0) await table.bulkPut(changed);
          }
          // A book added offline and assigned before the server named it (a row naming two
          // such books comes twice in the index: rewritten once).
          for (const set of sets) {
            const naming = await table.where(set).startsWith(TEMP_PREFIX).toArray();
            const changed = new Map<unknown, Row>();
            for (const row of naming) {
              const ids = row[set] as string[];
              if (ids.some((id) => named(parent.name, id) !== undefined))
                changed.set(row[child.key], { ...row, [set]: ids.map((id) => named(parent.name, id) ?? id) });
            }
            if (changed.size > 0) await table.bulkPut([...changed.values()]);
          }
        }
      }),
    );
    // Later entries of the same records (an edit queued after the add was sent): per entity,
    // among the entries under temporary ids (read as one range when few), else record by record.
    const own = new Set(adds.map((a) => a.seq));
    const later: OutboxEntry[] = [];
    for (const entity of kinds) {
      const temp = new Set(adds.filter((a) => a.entity === entity.name).map((a) => a.tempId));
      const ofRecords = await pickFromRange(
        db.outbox
          .where('[entity+key]')
          .between([entity.name, TEMP_PREFIX], [entity.name, `${TEMP_PREFIX}\uffff`]),
        temp,
        (entry) => entry.key,
        async () =>
          (
            await Promise.all(
              [...temp].map((id) => db.outbox.where('[entity+key]').equals([entity.name, id]).toArray()),
            )
          ).flat(),
      );
      later.push(...ofRecords.filter((entry) => !own.has(entry.seq)));
    }
    if (later.length > 0)
      await db.outbox.bulkPut(
        later.map((entry) => ({ ...entry, key: named(entry.entity, entry.key) ?? entry.key })),
      );
    await db.outbox.bulkDelete([...own]);
  });
}
