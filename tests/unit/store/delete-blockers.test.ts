/**
 * What keeps a record from being deleted, counted on the device (src/db/mutations/children.ts)
 * and said before anything is asked (contract/messages.ts): every kind of record naming it,
 * with how many, in description order; none when nothing names it.
 */
import { expect, it } from 'vitest';
import { bookEntity, seriesEntity, subjectEntity } from '../../../src/contract/entities';
import { stillUsedByCounts } from '../../../src/contract/still-used';
import type { LocalDb } from '../../../src/db/database';
import { childCounts } from '../../../src/db/mutations/children';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('delete-blockers', (opened) => {
  db = opened;
});

const said = async (key: string) =>
  stillUsedByCounts(
    subjectEntity.names,
    (await childCounts(db, subjectEntity, key)).map((b) => ({ names: b.child.names, count: b.count })),
  );

it('counts every kind of record that names a subject, and says them all', async () => {
  await db.rows(subjectEntity).bulkPut([
    { subject_id: '1', subject_name: 'Maths' },
    { subject_id: '2', subject_name: 'Art' },
    { subject_id: '3', subject_name: 'Music' },
  ]);
  await db.rows(seriesEntity).bulkPut([
    { series_id: 's1', series_name: 'A', subject_id: '1', class_id: 'c' },
    { series_id: 's2', series_name: 'B', subject_id: '1', class_id: 'c' },
    { series_id: 's3', series_name: 'C', subject_id: '2', class_id: 'c' },
  ]);
  await db.rows(bookEntity).bulkPut([{ book_id: 'b1', book_name: 'A1', subject_id: '1', series_id: 's1' }]);

  expect((await childCounts(db, subjectEntity, '1')).map((b) => [b.child.name, b.count])).toEqual([
    ['series', 2],
    ['book', 1],
  ]);
  expect(await said('1')).toBe(
    'This subject cannot be deleted: 2 series and 1 book belong to it. Delete them first.',
  );
  expect(await said('2')).toBe('This subject cannot be deleted: 1 series belongs to it. Delete it first.');
  expect(await childCounts(db, subjectEntity, '3')).toEqual([]);
});
