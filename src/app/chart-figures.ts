/**
 * The dashboard's charts' figures (src/db/chart-figures.ts) for the window: counts by a field
 * from the list worker (`countsOf`: a hundred thousand students are counted there, never read
 * on the main thread), assigned books through the sets' indexes, and the names of the few
 * schools and books shown (read by key). `watchChartFigures` computes them again after any
 * change to the tables they come from (this window's, another tab's, the service worker's:
 * Dexie's `storagemutated`), one computation at a time.
 */
import Dexie from 'dexie';
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
const NAME = { school: 'school_name', book: 'book_name' } as const;

export interface NamedSchoolShare extends SchoolShare {
  name: string;
}

export interface NamedBookShare extends BookShare {
  name: string;
}

export interface ChartFigures {
  schools: NamedSchoolShare[];
  active: Record<Person, ActiveShare>;
  books: NamedBookShare[];
  /** The owners of assigned books, as the books' figures name them (tables), in order. */
  bookOwners: { table: string; entity: string }[];
  teachersPerWeek: WeekCount[];
}

const bookSets = catalogue.sets.filter((s) => s.target === 'book');
const entityOfTable = new Map(Object.entries(catalogue.tables).map(([entity, table]) => [table, entity]));
const watched = new Set([...PEOPLE, 'book'].map((e) => catalogue.tables[e]));

/** Each record's name by key (a record gone meanwhile: its id). */
async function namesOf(entity: 'school' | 'book', ids: readonly string[]): Promise<string[]> {
  const rows = await db.table(catalogue.tables[entity]).bulkGet([...ids]);
  return rows.map((row, i) => String(row?.[NAME[entity]] ?? `#${ids[i]}`));
}

export async function readChartFigures(now = new Date()): Promise<ChartFigures> {
  const [students, teachers, byStatus, byDate, byBook] = await Promise.all([
    countsOf('student', {}, SCHOOL),
    countsOf('teacher', {}, SCHOOL),
    Promise.all(PEOPLE.map((e) => countsOf(e, {}, STATUS))),
    countsOf('teacher', {}, DATE_ADDED),
    assignedBookCounts(db, bookSets),
  ]);
  const shares = schoolShares(students, teachers);
  const schoolNames = await namesOf(
    'school',
    shares.flatMap((s) => (s.id ? [s.id] : [])),
  );
  const books = mostAssigned(byBook);
  const bookNames = await namesOf(
    'book',
    books.map((b) => b.id),
  );
  return {
    schools: shares.map((s, i) => ({ ...s, name: s.id ? schoolNames[i] : 'Others' })),
    active: Object.fromEntries(PEOPLE.map((e, i) => [e, activeShare(byStatus[i])])) as Record<
      Person,
      ActiveShare
    >,
    books: books.map((b, i) => ({ ...b, name: bookNames[i] })),
    bookOwners: bookSets.map((s) => ({ table: s.table, entity: entityOfTable.get(s.table) ?? s.table })),
    teachersPerWeek: weeklyAdded(byDate, now),
  };
}

/** Calls `onFigures` now and after every change to the tables counted; returns the unsubscribe. */
export function watchChartFigures(
  onFigures: (figures: ChartFigures) => void,
  onError: (error: unknown) => void,
): () => void {
  const prefix = `idb://${db.name}/`;
  let closed = false;
  let running = false;
  let again = false;
  const compute = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const figures = await readChartFigures();
        if (!closed) onFigures(figures);
      } while (again && !closed);
    } catch (error) {
      if (!closed) onError(error);
    } finally {
      running = false;
    }
  };
  const onMutated = (parts: Record<string, unknown>) => {
    const moved = Object.keys(parts).some(
      (part) => part.startsWith(prefix) && watched.has(part.slice(prefix.length).split('/')[0]),
    );
    if (moved) void compute();
  };
  Dexie.on('storagemutated', onMutated);
  void compute();
  return () => {
    closed = true;
    Dexie.on('storagemutated').unsubscribe(onMutated);
  };
}
