/**
 * The local store's table definitions may change only with a new LOCAL_SCHEMA_VERSION: Dexie
 * upgrades an existing device's store only when the version grows, and a window and a service
 * worker of different builds must not open the same version with different tables. Adding an
 * entity or an index: bump the version and add its definitions here.
 */
import { describe, expect, it } from 'vitest';
import { entities } from '../../src/contract/entities';
import { LOCAL_SCHEMA_VERSION, storesFor } from '../../src/db/database';

const RELEASED: Record<number, Readonly<Record<string, string>>> = {
  2: {
    outbox: '++seq, &id, entity, [entity+key], status',
    idmap: 'tempId, entity',
    meta: 'key',
    classes: 'class_id',
    subjects: 'subject_id',
    series: 'series_id, class_id, subject_id',
    books: 'book_id, class_id, subject_id, series_id',
    sections: 'section_id, class_id, subject_id, series_id, book_id',
    units: 'unit_id, class_id, subject_id, series_id, book_id, section_id',
    chapters: 'chapter_id, class_id, subject_id, series_id, book_id, section_id, unit_id',
  },
};
RELEASED[3] = { ...RELEASED[2], resource_types: 'id' };
RELEASED[4] = {
  ...RELEASED[3],
  reference: 'path',
  schools: 'school_id, *books',
  teachers: 'teacher_id, school_id, *books',
  students: 'student_id, school_id, *books',
};
RELEASED[5] = { ...RELEASED[4], content_images: 'image', about_us: 'id', terms: 'id' };
RELEASED[6] = {
  ...RELEASED[5],
  book_pages: 'page_id, book_id, chapter_id',
  library_resources: 'resource_id, class_id, subject_id, series_id, book_id, chapter_id, resource_type',
  questions: 'id, class_id, subject_id, series_id, book_id, chapter_id',
};
RELEASED[7] = { ...RELEASED[6], listChunks: '[table+col+n]', listHeads: 'table' };
RELEASED[8] = { ...RELEASED[7], imports: 'id, entity, hash' };
RELEASED[9] = {
  ...RELEASED[8],
  importSlices: '[import+at]',
  teachers: 'teacher_id, school_id, *books, status',
};

describe('local schema', () => {
  it('the tables are those released under the current version', () => {
    expect(storesFor(entities)).toEqual(RELEASED[LOCAL_SCHEMA_VERSION]);
  });
});
