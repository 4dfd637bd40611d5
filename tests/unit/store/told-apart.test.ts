/**
 * Chart names that read the same told apart (src/app/dashboard/told-apart.ts): by their
 * parents' current names from the local store, and by their ids when the parents read the
 * same too; names that differ are left as they are.
 */
import { expect, it } from 'vitest';
import { toldApart } from '../../../src/app/dashboard/told-apart';
import {
  bookEntity,
  classEntity,
  schoolEntity,
  seriesEntity,
  subjectEntity,
} from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('told-apart', (opened) => {
  db = opened;
});

it('adds the parents of books of one name, and the id where the parents read the same too', async () => {
  await db.rows(classEntity).bulkPut([
    { class_id: 'c1', class_name: 'Class 5' },
    { class_id: 'c2', class_name: 'Class 6' },
  ]);
  await db.rows(subjectEntity).bulkPut([{ subject_id: 's1', subject_name: 'Maths' }]);
  await db.rows(seriesEntity).bulkPut([
    { series_id: 'r1', series_name: 'Number Fun', class_id: 'c1', subject_id: 's1' },
    { series_id: 'r2', series_name: 'Bright Sums', class_id: 'c1', subject_id: 's1' },
  ]);
  const book = (id: string, name: string, series: string, cls = 'c1') => ({
    book_id: id,
    book_name: name,
    class_id: cls,
    subject_id: 's1',
    series_id: series,
  });
  await db
    .rows(bookEntity)
    .bulkPut([
      book('1', 'Maths 5', 'r1'),
      book('2', 'Maths 5', 'r2'),
      book('3', 'Reader', 'r1'),
      book('4', 'Twin', 'r1'),
      book('5', 'Twin', 'r1'),
    ]);
  const ids = ['1', '2', '3', '4', '5'];
  const names = ['Maths 5', 'Maths 5', 'Reader', 'Twin', 'Twin'];
  expect(await toldApart(db, bookEntity, ids, names)).toEqual([
    'Maths 5 · Class 5 · Maths · Number Fun',
    'Maths 5 · Class 5 · Maths · Bright Sums',
    'Reader',
    'Twin · Class 5 · Maths · Number Fun (#4)',
    'Twin · Class 5 · Maths · Number Fun (#5)',
  ]);
});

it('tells schools of one name apart by their ids, and leaves distinct names alone', async () => {
  expect(await toldApart(db, schoolEntity, ['7', '8'], ['Green Valley', 'Hill Top'])).toEqual([
    'Green Valley',
    'Hill Top',
  ]);
  await db.rows(schoolEntity).bulkPut([
    { school_id: '7', school_name: 'Green Valley' },
    { school_id: '8', school_name: 'Green Valley' },
  ]);
  expect(await toldApart(db, schoolEntity, ['7', '8'], ['Green Valley', 'Green Valley'])).toEqual([
    'Green Valley (#7)',
    'Green Valley (#8)',
  ]);
});
