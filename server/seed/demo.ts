/**
 * Demo data for `npm start` on a fresh machine (design brief §1): Classes 1 to 12 and a small
 * but coherent master-data tree under Classes 1 to 3, resource types, two schools with
 * teachers and students and books assigned to some, and content: pages of a book (with
 * images), library resources, questions, About Us and Terms, so every list, filter, cascade and the dashboard
 * has something to show. Each level repeats its ancestors' ids, as the tables do.
 */
import { originalNameColumn } from '../../src/contract/original-file-name';
import { hashPassword } from '../auth/password';
import type { Query } from '../db';
import type { UploadFolder } from '../storage/folders';
import { seedContent } from './content';
import { demoPageImage } from './images';

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

/** Pages of the first book: `chapter` indexes CHAPTERS; each page's heading band has its colour. */
const PAGES: readonly { title: string; chapter: number; rgb: [number, number, number] }[] = [
  { title: 'Good Morning: opener', chapter: 0, rgb: [233, 120, 60] },
  { title: 'Good Morning: practice', chapter: 0, rgb: [60, 140, 220] },
  { title: 'Meet My Friends: story', chapter: 1, rgb: [80, 170, 90] },
];

/** Library resources by resource type (RESOURCE_TYPES index) and chapter (CHAPTERS index). */
const RESOURCES: readonly {
  title: string;
  type: number;
  chapter: number | null;
  fields: Record<string, string>;
}[] = [
  {
    title: 'Greetings song',
    type: 0,
    chapter: 0,
    fields: { resource_category: 'Songs', resource_link: 'https://example.org/greetings-song' },
  },
  {
    title: 'Plants: theory notes',
    type: 4,
    chapter: 5,
    fields: { resource_category: 'Notes', notes_content: 'Roots hold the plant and take in water.' },
  },
  {
    title: 'Counting aloud',
    type: 5,
    chapter: null,
    fields: { resource_category: 'Audio', audio_link: 'https://example.org/counting.mp3' },
  },
];

/** Questions by chapter (CHAPTERS index). */
const QUESTIONS: readonly { chapter: number; fields: Record<string, string | number> }[] = [
  {
    chapter: 0,
    fields: {
      question_type: 'mcq',
      question_title: 'What do we say in the morning?',
      mcq_option_1: 'Good morning',
      mcq_option_2: 'Good night',
      mcq_option_3: 'Goodbye',
      mcq_option_4: 'Thank you',
      question_answer: 'Good morning',
      total_marks: 1,
    },
  },
  {
    chapter: 5,
    fields: {
      question_type: 'trueFalse',
      question_title: 'Roots take in water from the soil.',
      question_answer: 'True',
      total_marks: 1,
    },
  },
  {
    chapter: 4,
    fields: {
      question_type: 'match',
      question_title: 'Match the numbers with their tens and ones.',
      left_match: '34\n52',
      right_match: '3 tens 4 ones\n5 tens 2 ones',
      total_marks: 2,
    },
  },
];

/** Two schools with teachers and students, some of them with books assigned (`books` index BOOKS). */
const SCHOOLS = [
  {
    school_name: 'Green Valley School',
    school_address: '12 Hill Road, Andheri',
    email: 'office@greenvalley.example',
    contact_no: '+91 22 2345 6789',
    country: 'IN',
    state: 'MH',
    city: 'Mumbai',
    books: [0, 1, 3],
  },
  {
    school_name: 'Lakeside Public School',
    school_address: '4 Lake View, Koramangala',
    email: 'admin@lakeside.example',
    contact_no: '+91 80 4123 4567',
    country: 'IN',
    state: 'KA',
    city: 'Bengaluru',
    books: [2, 4],
  },
] as const;

/** `school` indexes SCHOOLS; one teacher waits for approval (Disabled). */
const TEACHERS = [
  {
    teacher_name: 'Asha Rao',
    email: 'asha.rao@greenvalley.example',
    school: 0,
    city: 'Mumbai',
    books: [0, 1],
  },
  {
    teacher_name: 'Vikram Iyer',
    email: 'vikram.iyer@greenvalley.example',
    school: 0,
    city: 'Pune',
    books: [3],
  },
  {
    teacher_name: 'Meera Nair',
    email: 'meera.nair@lakeside.example',
    school: 1,
    city: 'Bengaluru',
    books: [],
    pending: true,
  },
] as const;

const STUDENTS = [
  {
    student_name: 'Kabir Shah',
    email: 'kabir@greenvalley.example',
    school: 0,
    class_name: 'Class 1',
    books: [0],
  },
  {
    student_name: 'Ananya Gupta',
    email: 'ananya@greenvalley.example',
    school: 0,
    class_name: 'Class 2',
    books: [],
  },
  {
    student_name: 'Rohan Das',
    email: 'rohan@lakeside.example',
    school: 1,
    class_name: 'Class 2',
    books: [2],
  },
] as const;

/** Demo people sign in nowhere here; their password only fills the column (hashed, as always). */
const DEMO_PERSON_PASSWORD = 'demo-person-password';

async function insert(q: Query, table: string, key: string, row: Record<string, unknown>): Promise<number> {
  const cols = Object.keys(row);
  const [out] = await q<Record<string, number>>(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${key}`,
    Object.values(row),
  );
  return out[key];
}

/** Stores a demo file in an upload folder and returns its stored name. */
export type SaveDemoFile = (folder: UploadFolder, data: Uint8Array, ext: string) => Promise<string>;

// Each row keeps the ids of its whole ancestry, so children copy their parent's.
type Ids = Record<string, number | null>;

/** Classes 1 to 12, the subjects, and the books' tree down to their chapters. */
async function seedBookTree(q: Query): Promise<{ books: Ids[]; chapters: Ids[] }> {
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
  const chapters: Ids[] = [];
  for (const c of CHAPTERS) {
    const ids = c.unit === null ? { ...books[c.book], section_id: null, unit_id: null } : units[c.unit];
    chapters.push({
      ...ids,
      chapter_id: await insert(q, 'chapters', 'chapter_id', {
        ...ids,
        chapter_title: c.title,
        chapter_description: c.description,
      }),
    });
  }
  return { books, chapters };
}

/** The resource types, then pages of a book, library resources, questions, the CMS content. */
async function seedBookContent(
  q: Query,
  { books, chapters }: { books: Ids[]; chapters: Ids[] },
  saveFile: SaveDemoFile | undefined,
): Promise<void> {
  const typeIds: number[] = [];
  for (const [title, entryType] of RESOURCE_TYPES)
    typeIds.push(await insert(q, 'resource_types', 'id', { title, entry_type: entryType }));
  // Content sits on book levels without section and unit.
  const levels = ({ class_id, subject_id, series_id, book_id }: Ids) => ({
    class_id,
    subject_id,
    series_id,
    book_id,
  });
  for (const [n, page] of PAGES.entries()) {
    const chapter = chapters[page.chapter];
    await insert(q, 'book_pages', 'page_id', {
      book_id: chapter.book_id,
      chapter_id: chapter.chapter_id,
      page_title: page.title,
      page_number: n + 1,
      image_path: saveFile ? await saveFile('book_pages', demoPageImage(page.rgb), 'png') : null,
      [originalNameColumn('image_path')]: saveFile ? `page-${n + 1}.png` : null,
    });
  }
  for (const r of RESOURCES) {
    const chapter = r.chapter === null ? null : chapters[r.chapter];
    await insert(q, 'library_resources', 'resource_id', {
      ...levels(chapter ?? books[3]),
      chapter_id: chapter?.chapter_id ?? null,
      resource_title: r.title,
      resource_type: typeIds[r.type],
      ...r.fields,
    });
  }
  for (const question of QUESTIONS) {
    const chapter = chapters[question.chapter];
    await insert(q, 'questions', 'id', {
      ...levels(chapter),
      chapter_id: chapter.chapter_id,
      ...question.fields,
    });
  }
  await seedContent(q);
}

/** Schools, teachers and students, with the hashed password every such row holds, and their books. */
async function seedPeople(q: Query, bookIds: readonly (number | null)[]): Promise<void> {
  const password = await hashPassword(DEMO_PERSON_PASSWORD);
  const assign = async (table: string, key: string, id: number, picks: readonly number[]) => {
    for (const pick of picks)
      await q(`INSERT INTO ${table} (${key}, book_id) VALUES ($1, $2)`, [id, bookIds[pick]]);
  };
  const schoolIds: number[] = [];
  for (const { books: picks, ...school } of SCHOOLS) {
    const id = await insert(q, 'schools', 'school_id', { ...school, password });
    schoolIds.push(id);
    await assign('school_books', 'school_id', id, picks);
  }
  for (const t of TEACHERS) {
    const school = SCHOOLS[t.school];
    const id = await insert(q, 'teachers', 'teacher_id', {
      teacher_name: t.teacher_name,
      email: t.email,
      password,
      contact_no: '+91 98200 11111',
      school_id: schoolIds[t.school],
      country: school.country,
      state: school.state,
      city: t.city,
      zipcode: '400001',
      status: 'pending' in t && t.pending ? 'Disabled' : 'Enabled',
    });
    await assign('teacher_books', 'teacher_id', id, t.books);
  }
  for (const st of STUDENTS) {
    const school = SCHOOLS[st.school];
    const id = await insert(q, 'students', 'student_id', {
      student_name: st.student_name,
      email: st.email,
      password,
      contact_no: '+91 98200 22222',
      school_id: schoolIds[st.school],
      class_name: st.class_name,
      country: school.country,
      state: school.state,
      city: school.city,
    });
    await assign('student_books', 'student_id', id, st.books);
  }
}

export async function seedDemo(q: Query, saveFile?: SaveDemoFile): Promise<void> {
  const tree = await seedBookTree(q);
  await seedBookContent(q, tree, saveFile);
  await seedPeople(
    q,
    tree.books.map((b) => b.book_id),
  );
}
