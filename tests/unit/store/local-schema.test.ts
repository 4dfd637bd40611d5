/**
 * The local store's table definitions may change only with a new LOCAL_SCHEMA_VERSION: Dexie
 * upgrades an existing device's store only when the version grows, and a window and a service
 * worker of different builds must not open the same version with different tables. Adding an
 * entity or an index: bump the version and add its definitions here.
 */
import { describe, expect, it } from 'vitest';
import { entities } from '../../../src/contract/entities';
import { LOCAL_SCHEMA_VERSION, storesFor } from '../../../src/db/database';
import { placeOf } from '../../helpers/source-lines';

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
RELEASED[10] = {
  ...RELEASED[9],
  schools: 'school_id, *books, email',
  teachers: 'teacher_id, school_id, *books, status, email',
  students: 'student_id, school_id, *books, email',
};

describe('local schema', () => {
  it('the tables are those released under the current version', () => {
    const stores = storesFor(entities);
    expect(stores, releaseSteps(stores)).toEqual(RELEASED[LOCAL_SCHEMA_VERSION]);
  });
});

/**
 * What a newcomer does when the tables change (a new entity, a new parent): the version to
 * bump and the line to add to RELEASED above, written out from the tables as they now are.
 */
function releaseSteps(stores: Record<string, string>): string {
  const released = RELEASED[LOCAL_SCHEMA_VERSION] ? LOCAL_SCHEMA_VERSION : LOCAL_SCHEMA_VERSION - 1;
  const next = released + 1;
  const before = RELEASED[released] ?? {};
  const changed = Object.entries(stores).filter(([table, def]) => before[table] !== def);
  const dropped = Object.keys(before).filter((table) => !(table in stores));
  const spread = [`...RELEASED[${released}]`, ...changed.map(([table, def]) => `${table}: '${def}'`)];
  const line = `RELEASED[${next}] = { ${spread.join(', ')} };`;
  const bump =
    released === LOCAL_SCHEMA_VERSION
      ? `set LOCAL_SCHEMA_VERSION to ${next} at ${placeOf('src/db/database.ts', 'export const LOCAL_SCHEMA_VERSION')}, and `
      : '';
  return (
    `The local tables differ from those released under version ${released}: ${bump}add ` +
    `\`${line}\` to tests/unit/store/local-schema.test.ts, below RELEASED[${released}] ` +
    `(${placeOf('tests/unit/store/local-schema.test.ts', `RELEASED[${released}] =`)})` +
    (dropped.length > 0 ? ` (written out in full: ${dropped.join(', ')} no longer exist)` : '')
  );
}
