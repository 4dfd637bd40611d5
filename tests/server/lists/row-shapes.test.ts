/**
 * Row shapes (server/entities/row-shapes.ts): a start that finds an entity's row shape as it
 * was resets nothing, so restarts never make devices pull whole tables; a changed description
 * or table resets that entity alone, and a delta pull from an older cursor then answers every
 * row of it, deletions still from the cursor, in pages that go on from each other (a page of
 * the re-send that ends below the reset must not start it again).
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db';
import { deltaPull } from '../../../server/entities/delta';
import { entityGraph } from '../../../server/entities/graph';
import { jsonRows } from '../../../server/entities/json-rows';
import { recordRowShapes } from '../../../server/entities/row-shapes';
import { rowSelect } from '../../../server/entities/select';
import { classEntity, entities } from '../../../src/contract/entities';

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
      const rows = jsonRows(classEntity, rowSelect(classEntity, entityGraph(entities)));
      const pull = async (cursor: string, limit = 100) => {
        const [, rev, resent] = /^(\d+)(?:-(\d+))?$/.exec(cursor) ?? [];
        const since = { rev: Number(rev), resent: resent === undefined ? undefined : Number(resent) };
        return (await deltaPull(db, classEntity, rows, since, { limit, count: false })) as {
          classes: { class_name: string; motto?: string }[];
          deleted: number[];
          cursor: string;
          more: boolean;
        };
      };
      const before = await pull('0');
      await db.query("DELETE FROM classes WHERE class_name = 'Three'");

      // A column added by a migration: the table's shape changed, the description's not yet.
      await db.query("ALTER TABLE classes ADD COLUMN motto text NOT NULL DEFAULT ''");
      await recordRowShapes(db, entities);
      await recordRowShapes(db, entities);
      const second = await resets(db);
      expect(second.classes).toBeGreaterThan(Number(before.cursor));
      expect({ ...second, classes: 0 }).toEqual(first);

      const after = await pull(before.cursor);
      expect(after.classes.map((c) => [c.class_name, c.motto])).toEqual([
        ['One', ''],
        ['Two', ''],
      ]);
      expect(after.deleted).toHaveLength(1);
      // From the new cursor on, deltas again.
      const next = await pull(after.cursor);
      expect(next.classes).toEqual([]);

      // The re-send in pages of one: each page goes on from the last, none starts it again.
      await db.query("ALTER TABLE classes ADD COLUMN crest text NOT NULL DEFAULT 'oak'");
      await recordRowShapes(db, entities);
      let cursor = before.cursor;
      const resent: string[] = [];
      const deleted: number[] = [];
      for (let pages = 0; ; pages++) {
        expect(pages).toBeLessThan(5);
        const page = await pull(cursor, 1);
        resent.push(...page.classes.map((c) => c.class_name));
        deleted.push(...page.deleted);
        cursor = page.cursor;
        if (!page.more) break;
      }
      expect(resent).toEqual(['One', 'Two']);
      expect(deleted).toHaveLength(1);
      expect((await pull(cursor)).classes).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
