/**
 * A field or a parent added to an entity must reach the rows devices already hold. A delta
 * pull sends only rows whose rev moved since the device's cursor, and adding a column moves
 * none (ALTER TABLE fires no trigger; a column DEFAULT fills old rows silently). So the server
 * keeps a fingerprint of each entity's row shape (migrations/011_row_shapes.sql): the table's
 * columns and types, and the description's fields, parents' name columns and sets, which
 * together decide what a row on the wire carries. When a start finds it changed, the entity
 * gets a fresh rev as its `reset_rev`; a delta pull from a cursor below that answers every row
 * of the table (deletions still from the cursor), once per device, and the cursor it returns is
 * past the reset. A device never has to know: its cursor keeps working.
 *
 * It depends on neither the order in which app and server are upgraded (a device pulling rows
 * of a new shape before its app knows the field keeps the column anyway: sync/normalise.ts)
 * nor on the migration remembering to touch the rows. The first start with this table records
 * every shape without a reset: the devices' rows were current before.
 */
import { createHash } from 'node:crypto';
import type { EntityDescription } from '../../src/contract/entity';
import type { Database, Query } from '../db';

/** Entities whose rows devices pull by delta: those with a list endpoint. */
const pulled = (entity: EntityDescription) => !entity.single && entity.api.list !== undefined;

function describedShape(entity: EntityDescription): unknown {
  const fields = Object.entries(entity.fields)
    .map(([name, s]) => [name, s.kind, s.ref ?? '', s.refName ?? ''])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
  return { key: entity.key, fields, sets: Object.keys(entity.relations ?? {}).sort() };
}

/** Records each pulled entity's shape; a changed one gets a reset_rev every older cursor is below. */
export async function recordRowShapes(db: Database, entities: readonly EntityDescription[]): Promise<void> {
  await db.tx(async (q) => {
    for (const entity of entities.filter(pulled)) {
      const columns = await q<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 ORDER BY column_name`,
        [entity.table],
      );
      const shape = JSON.stringify({
        described: describedShape(entity),
        columns: columns.map((c) => [c.column_name, c.data_type]),
      });
      const fingerprint = createHash('sha256').update(shape).digest('hex');
      await q(
        `INSERT INTO row_shapes (entity_table, fingerprint) VALUES ($1, $2)
         ON CONFLICT (entity_table) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, reset_rev = nextval('change_seq')
         WHERE row_shapes.fingerprint <> EXCLUDED.fingerprint`,
        [entity.table, fingerprint],
      );
    }
  });
}

/** The rev a delta pull reads rows from: `since`, or 0 when the row shape changed after it. */
export async function rowsSince(q: Query, table: string, since: number): Promise<number> {
  const [shape] = await q<{ reset_rev: number }>('SELECT reset_rev FROM row_shapes WHERE entity_table = $1', [
    table,
  ]);
  return shape && since < Number(shape.reset_rev) ? 0 : since;
}
