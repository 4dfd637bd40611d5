/**
 * The dashboard's charts' figures (src/db/chart-figures.ts) for the window: counts by a field
 * from the list worker (`countsOf`: a hundred thousand students are counted there, never read
 * on the main thread), assigned books through the sets' indexes, and the names of the few
 * schools and books shown (read by key). `watchChartFigures` computes them again after any
 * change to the tables they come from (this window's, another tab's, the service worker's:
 * Dexie's `storagemutated`), one computation at a time.
 */
import Dexie from 'dexie';
import { entityByName } from '../contract/entities';
import { parentName } from '../contract/parent-names';
import {
  type ActiveShare,
  activeShare,
  assignedBookCounts,
  type BookShare,
  mostAssigned,
  type SchoolShare,
  schoolShares,
  type WeekCount,
  weeklyAdded,
} from '../db/chart-figures';
import { catalogue } from './catalogue';
import { db } from './context';
import { countsOf } from './list-engine';

/** The people a dashboard counts, by entity name (their status, school and date fields). */
const PEOPLE = ['school', 'teacher', 'student'] as const;
type Person = (typeof PEOPLE)[number];

/** The fields the figures count by (the same in the three descriptions, src/contract/entities). */
const SCHOOL = 'school_id';
const STATUS = 'status';
/** Of the three, only teachers carry the date they were added (`date_added`, set by the server). */
const DATE_ADDED = 'date_added';

export interface NamedSchoolShare extends SchoolShare {
  name: string;
}

export interface NamedBookShare extends BookShare {
  name: string;
}

/** The figures counted in the list worker. */
export interface CountFigures {
  schools: NamedSchoolShare[];
  active: Record<Person, ActiveShare>;
  teachersPerWeek: WeekCount[];
}

/** The assigned books, counted through the sets' indexes. */
export interface BookFigures {
  books: NamedBookShare[];
  /** The owners of assigned books, as the books' figures name them (tables), in order. */
  owners: { table: string; entity: string }[];
}

/** Each part as soon as it is counted (null before): one does not wait for the other. */
export interface ChartFigures {
  counts: CountFigures | null;
  books: BookFigures | null;
}

const bookSets = catalogue.sets.filter((s) => s.target === 'book');
const entityOfTable = new Map(Object.entries(catalogue.tables).map(([entity, table]) => [table, entity]));
const watched = new Set([...PEOPLE, 'book'].map((e) => catalogue.tables[e]));

/** Each record's name by key, as any record naming it shows it (a record gone meanwhile: its id). */
async function namesOf(entity: 'school' | 'book', ids: readonly string[]): Promise<string[]> {
  const described = entityByName(entity);
  const rows = await db.rows(described).bulkGet([...ids]);
  return rows.map((row, i) => (row ? parentName(described, row) : `#${ids[i]}`));
}

/** A User Timing measure of the figures' parts (profiles and bench/dashboard.mjs show them). */
async function timed<T>(label: string, work: Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await work;
  performance.measure(`dashboard ${label}`, { start });
  return out;
}

export async function readCountFigures(now = new Date()): Promise<CountFigures> {
  const [students, teachers, byStatus, byDate] = await Promise.all([
    timed('counts students by school', countsOf('student', {}, SCHOOL)),
    timed('counts teachers by school', countsOf('teacher', {}, SCHOOL)),
    timed('counts by status', Promise.all(PEOPLE.map((e) => countsOf(e, {}, STATUS)))),
    timed('counts teachers by date', countsOf('teacher', {}, DATE_ADDED)),
  ]);
  const shares = schoolShares(students, teachers);
  const names = await namesOf(
    'school',
    shares.flatMap((s) => (s.id ? [s.id] : [])),
  );
  return {
    schools: shares.map((s, i) => ({ ...s, name: s.id ? names[i] : 'Others' })),
    active: Object.fromEntries(PEOPLE.map((e, i) => [e, activeShare(byStatus[i])])) as Record<
      Person,
      ActiveShare
    >,
    teachersPerWeek: weeklyAdded(byDate, now),
  };
}

export async function readBookFigures(): Promise<BookFigures> {
  const books = mostAssigned(await timed('assigned books', assignedBookCounts(db, bookSets)));
  const names = await namesOf(
    'book',
    books.map((b) => b.id),
  );
  return {
    books: books.map((b, i) => ({ ...b, name: names[i] })),
    owners: bookSets.map((s) => ({ table: s.table, entity: entityOfTable.get(s.table) ?? s.table })),
  };
}

/**
 * Reads again after every change, one read at a time: a change during a read reads once more
 * after it (every answer is handed on: each was current when it began).
 */
function follower<T>(read: () => Promise<T>, onAnswer: (answer: T) => void, onError: (e: unknown) => void) {
  let running = false;
  let again = false;
  let closed = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const answer = await read();
        if (!closed) onAnswer(answer);
      } while (again && !closed);
    } catch (error) {
      if (!closed) onError(error);
    } finally {
      running = false;
    }
  };
  return {
    run,
    close: () => {
      closed = true;
    },
  };
}

/**
 * Calls `onFigures` as each part is counted, and again after every change to the tables
 * counted (this window's, another tab's, the service worker's); returns the unsubscribe.
 */
export function watchChartFigures(
  onFigures: (figures: ChartFigures) => void,
  onError: (error: unknown) => void,
): () => void {
  const prefix = `idb://${db.name}/`;
  let latest: ChartFigures = { counts: null, books: null };
  const parts = [
    follower(
      () => readCountFigures(),
      (counts) => {
        latest = { ...latest, counts };
        onFigures(latest);
      },
      onError,
    ),
    follower(
      readBookFigures,
      (books) => {
        latest = { ...latest, books };
        onFigures(latest);
      },
      onError,
    ),
  ];
  const onMutated = (changed: Record<string, unknown>) => {
    const moved = Object.keys(changed).some(
      (part) => part.startsWith(prefix) && watched.has(part.slice(prefix.length).split('/')[0]),
    );
    if (moved) for (const part of parts) void part.run();
  };
  Dexie.on('storagemutated', onMutated);
  for (const part of parts) void part.run();
  return () => {
    for (const part of parts) part.close();
    Dexie.on('storagemutated').unsubscribe(onMutated);
  };
}
