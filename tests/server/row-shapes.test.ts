/**
 * Row shapes (server/entities/row-shapes.ts): a start that finds an entity's row shape as it
 * was resets nothing, so restarts never make devices pull whole tables; a changed description
 * or table resets that entity alone, and a delta pull from an older cursor then answers every
 * row of it, deletions still from the cursor.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { deltaPull } from '../../server/entities/delta';
import { entityGraph } from '../../server/entities/graph';
import { recordRowShapes } from '../../server/entities/row-shapes';
import { rowSelect } from '../../server/entities/select';
import { classEntity, entities } from '../../src/contract/entities';

const resets = async (db: Awaited<ReturnType<typeof openDatabase>>) =>
  Object.fromEntries(
    (
      await db.query<{ entity_table: string; reset_rev: number }>(
        'SELECT entity_table, reset_rev FROM row_shapes',
      )
    ).map((r) => [r.entity_table, Number(r.reset_rev)]),
  );

describe('row shapes', () => {
  it('reset only the entity whose shape changed, and only once', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await recordRowShapes(db, entities);
      await recordRowShapes(db, entities);
      const first = await resets(db);
      expect(Object.keys(first)).toContain('classes');
      expect(Object.values(first).every((rev) => rev === 0)).toBe(true);

      const classes = (names: string[]) =>
        db.query(`INSERT INTO classes (class_name) SELECT unnest($1::text[])`, [names]);
      await classes(['One', 'Two', 'Three']);
      const select = rowSelect(classEntity, entityGraph(entities)).sql;
      const before = (await deltaPull(db, classEntity, select, 0)) as { cursor: string };
      await db.query("DELETE FROM classes WHERE class_name = 'Three'");

      // A column added by a migration: the table's shape changed, the description's not yet.
      await db.query("ALTER TABLE classes ADD COLUMN motto text NOT NULL DEFAULT ''");
      await recordRowShapes(db, entities);
      await recordRowShapes(db, entities);
      const second = await resets(db);
      expect(second.classes).toBeGreaterThan(Number(before.cursor));
      expect({ ...second, classes: 0 }).toEqual(first);

      const after = (await deltaPull(db, classEntity, select, Number(before.cursor))) as Record<
        string,
        unknown
      >;
      expect(
        (after.classes as { class_name: string; motto: string }[]).map((c) => [c.class_name, c.motto]),
      ).toEqual([
        ['One', ''],
        ['Two', ''],
      ]);
      expect(after.deleted).toHaveLength(1);
      // From the new cursor on, deltas again.
      const next = (await deltaPull(db, classEntity, select, Number(after.cursor))) as Record<
        string,
        unknown
      >;
      expect(next.classes).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
