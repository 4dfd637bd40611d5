/**
 * Demo data for `npm start` on a fresh machine (design brief §1): Classes 1 to 12 and a small
 * but coherent master-data tree under Classes 1 to 3, so every list, filter and cascade has
 * something to show. Each level repeats its ancestors' ids, as the tables do.
 */
import type { Query } from './db';

const SUBJECTS = {
  English: '<p>Reading, writing and speaking, with <strong>stories and poems</strong> for every term.</p>',
  Mathematics: '<p>Numbers, shapes and measurement, practised through <em>games and puzzles</em>.</p>',
  Science: '<p>Plants, animals, materials and forces: <strong>finding out</strong> by observing.</p>',
} as const;
type Subject = keyof typeof SUBJECTS;

const SERIES: readonly { name: string; classNo: number; subject: Subject }[] = [
  { name: 'Sunrise English', classNo: 1, subject: 'English' },
  { name: 'Sunrise English', classNo: 2, subject: 'English' },
  { name: 'Number Fun', classNo: 1, subject: 'Mathematics' },
  { name: 'Number Fun', classNo: 2, subject: 'Mathematics' },
  { name: 'Curious Minds', classNo: 3, subject: 'Science' },
];

/** `series` indexes SERIES; one book is popular, none has a cover. */
const BOOKS: readonly { name: string; code: string; series: number; popular?: boolean }[] = [
  { name: 'Sunrise English Reader 1', code: 'SE-R1', series: 0, popular: true },
  { name: 'Sunrise English Workbook 1', code: 'SE-W1', series: 0 },
  { name: 'Sunrise English Reader 2', code: 'SE-R2', series: 1 },
  { name: 'Number Fun 1', code: 'NF-1', series: 2 },
  { name: 'Number Fun 2', code: 'NF-2', series: 3 },
  { name: 'Curious Minds 3', code: 'CM-3', series: 4 },
];

const SECTIONS: readonly { name: string; book: number }[] = [
  { name: 'Part A: Stories', book: 0 },
  { name: 'Part B: Poems', book: 0 },
  { name: 'Numbers up to 100', book: 3 },
];

/** `section` indexes SECTIONS (null: directly under the book). */
const UNITS: readonly { title: string; book: number; section: number | null }[] = [
  { title: 'Unit 1: Hello!', book: 0, section: 0 },
  { title: 'Unit 2: My Family', book: 0, section: 0 },
  { title: 'Unit 3: Rhymes', book: 0, section: 1 },
  { title: 'Counting in Tens', book: 3, section: 2 },
  { title: 'Plants Around Us', book: 5, section: null },
];

const CHAPTERS: readonly { title: string; description: string; book: number; unit: number | null }[] = [
  { title: 'Good Morning', description: 'Greetings at home and at school.', book: 0, unit: 0 },
  { title: 'Meet My Friends', description: 'Names, ages and favourite games.', book: 0, unit: 0 },
  { title: 'Grandma’s Garden', description: 'A story about a family day out.', book: 0, unit: 1 },
  { title: 'Twinkle, Twinkle', description: 'A first poem to read aloud.', book: 0, unit: 2 },
  { title: 'Tens and Ones', description: 'Bundling sticks into tens.', book: 3, unit: 3 },
  { title: 'Parts of a Plant', description: 'Roots, stem, leaves and flowers.', book: 5, unit: 4 },
  { title: 'Shapes All Around', description: 'Circles, squares and triangles at home.', book: 4, unit: null },
];

/** Resource types with each entry-type code (spec §4), for the library's type select. */
const RESOURCE_TYPES: readonly [title: string, entryType: number][] = [
  ['Video Link', 1],
  ['Worksheet', 2],
  ['Notes with Link', 3],
  ['Interactive Activity', 4],
  ['Theory Notes', 5],
  ['Audio Lesson', 6],
];

async function insert(q: Query, table: string, key: string, row: Record<string, unknown>): Promise<number> {
  const cols = Object.keys(row);
  const [out] = await q<Record<string, number>>(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${key}`,
    Object.values(row),
  );
  return out[key];
}

export async function seedDemo(q: Query): Promise<void> {
  await q(
    `INSERT INTO classes (class_name, sort_order) SELECT 'Class ' || n, n FROM generate_series(1, 12) AS n`,
  );
  const classIds = new Map(
    (await q<{ class_id: number; sort_order: number }>('SELECT class_id, sort_order FROM classes')).map(
      (r) => [r.sort_order, r.class_id],
    ),
  );
  const subjectIds = new Map<string, number>();
  for (const [name, content] of Object.entries(SUBJECTS))
    subjectIds.set(
      name,
      await insert(q, 'subjects', 'subject_id', { subject_name: name, subject_content: content }),
    );

  // Each row keeps the ids of its whole ancestry, so children copy their parent's.
  type Ids = Record<string, number | null>;
  const series: Ids[] = [];
  for (const s of SERIES) {
    const ids = { class_id: classIds.get(s.classNo)!, subject_id: subjectIds.get(s.subject)! };
    series.push({
      ...ids,
      series_id: await insert(q, 'series', 'series_id', { ...ids, series_name: s.name }),
    });
  }
  const books: Ids[] = [];
  for (const b of BOOKS) {
    const ids = series[b.series];
    const row = { ...ids, book_name: b.name, book_code: b.code, status: b.popular ? 'Enabled' : 'Disabled' };
    books.push({ ...ids, book_id: await insert(q, 'books', 'book_id', row) });
  }
  const sections: Ids[] = [];
  for (const s of SECTIONS) {
    const ids = books[s.book];
    sections.push({
      ...ids,
      section_id: await insert(q, 'sections', 'section_id', { ...ids, section_name: s.name }),
    });
  }
  const units: Ids[] = [];
  for (const u of UNITS) {
    const ids = u.section === null ? { ...books[u.book], section_id: null } : sections[u.section];
    units.push({ ...ids, unit_id: await insert(q, 'units', 'unit_id', { ...ids, unit_title: u.title }) });
  }
  for (const c of CHAPTERS) {
    const ids = c.unit === null ? { ...books[c.book], section_id: null, unit_id: null } : units[c.unit];
    await insert(q, 'chapters', 'chapter_id', {
      ...ids,
      chapter_title: c.title,
      chapter_description: c.description,
    });
  }
  for (const [title, entryType] of RESOURCE_TYPES)
    await insert(q, 'resource_types', 'id', { title, entry_type: entryType });
}
