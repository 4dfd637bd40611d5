/**
 * A parent's name and "still used" are each defined once. Every reader of a parent's
 * name (the page's rows, the list engine's order, the select options, sets by name) shows what
 * contract/parent-names.ts says; the device's delete check and the server's graph ask the same
 * child links (contract/still-used.ts) and refuse with the same words.
 */
import { describe, expect, it } from 'vitest';
import { entityGraph } from '../../../server/entities/graph';
import {
  bookEntity,
  classEntity,
  entities,
  seriesEntity,
  subjectEntity,
} from '../../../src/contract/entities';
import { parentName } from '../../../src/contract/parent-names';
import { childLinks, stillUsedRefusal } from '../../../src/contract/still-used';
import type { LocalDb } from '../../../src/db/database';
import { mutate, StillUsedError } from '../../../src/db/mutate';
import { listRows } from '../../../src/db/queries';
import { namesOf } from '../../../src/db/reads/join-parent-names';
import { refOptions } from '../../../src/db/reads/parent-options';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('single-definitions', (opened) => {
  db = opened;
});

/** Two classes and their series, whose copies of the classes' names are stale. */
async function seed() {
  await db.rows(classEntity).bulkPut([
    { class_id: '1', class_name: 'Class 1' },
    { class_id: '2', class_name: 'Class 2' },
  ]);
  await db.rows(subjectEntity).put({ subject_id: '1', subject_name: 'Maths' });
  await db.rows(seriesEntity).bulkPut([
    { series_id: '1', series_name: 'Number Fun', class_id: '1', class_name: 'stale B', subject_id: '1' },
    { series_id: '2', series_name: 'Number Fun', class_id: '2', class_name: 'stale A', subject_id: '1' },
  ]);
  // Renamed here: only the class's own row knows the new name.
  await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'Zeta' } });
}

const definedName = async (id: string) => parentName(classEntity, (await db.rows(classEntity).get(id))!);

describe('the name shown for a row’s parent', () => {
  it('is the same for the page’s rows, the list engine’s order, the options and sets by name', async () => {
    await seed();
    const expected = { '1': await definedName('1'), '2': await definedName('2') };
    expect(expected).toEqual({ '1': 'Zeta', '2': 'Class 2' });

    const page = await listRows(db, seriesEntity, { sort: { field: 'class_name', dir: 'asc' } });
    // Rows carry the defined names, and the engine sorted by them (not by the stale copies).
    expect(page.rows.map((r) => [r.class_id, r.class_name])).toEqual([
      ['2', expected['2']],
      ['1', expected['1']],
    ]);

    // Series with the same title are told apart in a book's select by their classes' names.
    const options = await refOptions(db, bookEntity, 'series_id', {}, false);
    expect(options.map((o) => o.label)).toEqual([
      `Number Fun — ${expected['2']} · Maths`,
      `Number Fun — ${expected['1']} · Maths`,
    ]);

    expect(Object.fromEntries(await namesOf(db, classEntity))).toEqual(expected);
  });
});

describe('still used', () => {
  it('the server’s graph asks the child links the device asks, nearest first', () => {
    const graph = entityGraph(entities);
    for (const entity of entities) {
      const device = childLinks(entity, entities).map((l) => `${l.child.name}.${l.field}`);
      expect(graph.children(entity).map((l) => `${l.child.name}.${l.field}`)).toEqual(device);
    }
  });

  it('the device refuses a delete with the one definition’s words', async () => {
    await seed();
    const expected = await stillUsedRefusal(
      classEntity,
      childLinks(classEntity, entities),
      (l) => l.child === seriesEntity,
    );
    expect(expected).toBe('This class cannot be deleted: series still belong to it. Delete them first.');
    const refused = mutate(db, { op: 'delete', entity: classEntity, key: '2' });
    await expect(refused).rejects.toThrow(StillUsedError);
    await expect(refused).rejects.toThrow(expected!);
  });
});
