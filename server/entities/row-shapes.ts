/**
 * A field or a parent added to an entity must reach the rows devices already hold. A delta
 * pull sends only rows whose rev moved since the device's cursor, and adding a column moves
 * none (ALTER TABLE fires no trigger; a column DEFAULT fills old rows silently). So the server
 * keeps a fingerprint of each entity's row shape (migration 011, table row_shapes): the table's
 * columns and types, and the description's fields, parents' name columns and sets, which
 * together decide what a row on the wire carries. When a start finds it changed, the entity
 * gets a fresh rev as its `reset_rev`; a delta pull from a cursor below that answers every row
 * of the table (deletions still from the cursor), once per device, and the cursor it returns is
 * past the reset. A device never has to know: its cursor keeps working.
 *
 * It depends on neither the order in which app and server are upgraded (a device pulling rows
 * of a new shape before its app knows the field keeps the column anyway: sync/pull/normalise.ts)
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

/**
 * Records each pulled entity's shape; a changed one gets a reset_rev every older cursor is
 * below. Two statements whatever the number of entities: it runs at every start.
 */
export async function recordRowShapes(db: Database, entities: readonly EntityDescription[]): Promise<void> {
  const list = entities.filter(pulled);
  const tables = list.map((e) => e.table);
  await db.tx(async (q) => {
    const columns = await q<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT c.relname AS table_name, a.attname AS column_name,
              format_type(a.atttypid, a.atttypmod) AS data_type
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[])
          AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attname`,
      [tables],
    );
    const fingerprints = list.map((entity) => {
      const shape = JSON.stringify({
        described: describedShape(entity),
        columns: columns
          .filter((c) => c.table_name === entity.table)
          .map((c) => [c.column_name, c.data_type]),
      });
      return createHash('sha256').update(shape).digest('hex');
    });
    await q(
      `INSERT INTO row_shapes (entity_table, fingerprint)
       SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (entity_table) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, reset_rev = nextval('change_seq')
       WHERE row_shapes.fingerprint <> EXCLUDED.fingerprint`,
      [tables, fingerprints],
    );
  });
}

/**
 * A delta cursor as a client sends it back: a rev, and after a page of a re-send that ended
 * below the reset, that reset's rev (`<rev>-<reset>`, see deltaCursorText).
 */
export interface DeltaCursor {
  rev: number;
  /** The reset whose re-send the pages up to `rev` already carried. */
  resent?: number;
}

/**
 * The rev a delta pull reads rows from: the cursor's, or 0 when the row shape changed after it
 * and this re-send has not begun; and the reset, while the cursor is below it.
 */
export async function rowsSince(
  q: Query,
  table: string,
  cursor: DeltaCursor,
): Promise<{ from: number; reset?: number }> {
  const [shape] = await q<{ reset_rev: number }>('SELECT reset_rev FROM row_shapes WHERE entity_table = $1', [
    table,
  ]);
  const reset = shape ? Number(shape.reset_rev) : 0;
  if (cursor.rev >= reset) return { from: cursor.rev };
  return { from: cursor.resent === reset ? cursor.rev : 0, reset };
}

/**
 * The cursor a page returns. The re-send after a reset comes in pages too, in rev
 * order from 0; a page that ends below the reset names it, so the next page goes on from there
 * instead of starting the re-send again. A client keeps the cursor as opaque text.
 */
export const deltaCursorText = (rev: number, reset: number | undefined) =>
  reset !== undefined && rev < reset ? `${rev}-${reset}` : String(rev);

/** `<rev>` or `<rev>-<reset>` (deltaCursorText); undefined when it is neither. */
export function parseDeltaCursor(text: string): DeltaCursor | undefined {
  const m = /^([0-9]{1,15})(?:-([0-9]{1,15}))?$/.exec(text);
  if (!m) return undefined;
  return m[2] === undefined ? { rev: Number(m[1]) } : { rev: Number(m[1]), resent: Number(m[2]) };
}
