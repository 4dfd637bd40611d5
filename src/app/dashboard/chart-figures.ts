/**
 * The dashboard's charts' figures (src/db/dashboard/chart-data.ts) for the window: counts by a field
 * and the books' holders are kept current by the list worker (`watchCounts`,
 * db/list-engine/count-watches.ts: a hundred thousand students are counted there from its
 * indexes in memory, again on its own change events, and pushed here), so the window never
 * counts and never asks again; it shapes what it is told and reads the names of the few
 * schools and books shown (by key), again when those tables change, telling apart names that
 * read the same.
 */
import Dexie from 'dexie';
import { entityByName } from '../../contract/entities';
import { parentName } from '../../contract/parent-names';
import {
  type ActiveShare,
  activeShare,
  type BookShare,
  mostAssigned,
  type SchoolShare,
  schoolShares,
  type WeekCount,
  weeklyAdded,
} from '../../db/dashboard/chart-data';
import { follower } from '../../db/follower';
import type { CountsAnswer } from '../../db/list-engine/protocol';
import { mutatedTables } from '../../db/mutated-tables';
import { catalogue } from '../catalogue/built-catalogue';
import { watchCounts } from '../list-worker-client';
import { db } from '../window-context';
import { toldApart } from './told-apart';

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

type Named = 'school' | 'book';

/**
 * Each record's name by key, as any record naming it shows it (a record gone meanwhile: its
 * id). Names read are kept until their table changes (`forget`), so a push of new counts shows
 * without a read of the store, which may wait behind the sync's writes.
 */
const known = { school: new Map<string, string>(), book: new Map<string, string>() };
/** Moves when names are forgotten: a read begun before keeps its answer out of the cache. */
let generation = 0;
function forget(entity: Named): void {
  known[entity].clear();
  generation++;
}

/** The names of the records shown side by side, told apart where two read the same. */
async function namesOf(entity: Named, ids: readonly string[]): Promise<string[]> {
  return toldApart(db, entityByName(entity), ids, await plainNamesOf(entity, ids));
}

async function plainNamesOf(entity: Named, ids: readonly string[]): Promise<string[]> {
  const cache = known[entity];
  const missing = ids.filter((id) => !cache.has(id));
  if (missing.length === 0) return ids.map((id) => cache.get(id) ?? `#${id}`);
  const began = generation;
  const described = entityByName(entity);
  const rows = await db.rows(described).bulkGet(missing);
  const read = new Map(missing.map((id, i) => [id, rows[i] ? parentName(described, rows[i]) : undefined]));
  if (began === generation) for (const [id, name] of read) if (name !== undefined) cache.set(id, name);
  return ids.map((id) => read.get(id) ?? cache.get(id) ?? `#${id}`);
}

/** What the worker counts, in this order: people by school, by status, teachers by date. */
const COUNTED = [
  { entity: 'student', field: SCHOOL },
  { entity: 'teacher', field: SCHOOL },
  ...PEOPLE.map((entity) => ({ entity, field: STATUS })),
  { entity: 'teacher', field: DATE_ADDED },
];

/** The count figures from the worker's counts (in COUNTED's order), with the schools' names. */
export async function countFigures(
  counts: readonly Record<string, number>[],
  now = new Date(),
): Promise<CountFigures> {
  const [students, teachers, ...rest] = counts;
  const byStatus = rest.slice(0, PEOPLE.length);
  const byDate = rest[PEOPLE.length];
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

/** The book figures from the worker's holders of each book, with the books' names. */
export async function bookFigures(
  holders: readonly [string, Record<string, number>][],
): Promise<BookFigures> {
  const books = mostAssigned(new Map(holders));
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
 * Calls `onFigures` as each part is counted, and again whenever the worker's counts move or a
 * school or book shown may have another name (this window's writes, another tab's, the service
 * worker's); returns the unsubscribe.
 */
export function watchChartFigures(
  onFigures: (figures: ChartFigures) => void,
  onError: (error: unknown) => void,
): () => void {
  // Names may have changed while no dashboard followed the tables.
  forget('school');
  forget('book');
  let latest: ChartFigures = { counts: null, books: null };
  let counts: Record<string, number>[] | null = null;
  let holders: [string, Record<string, number>][] | null = null;
  const countsPart = follower(
    async () => {
      const start = performance.now();
      const figures = counts && (await countFigures(counts));
      performance.measure('dashboard counts shaped', { start });
      return figures;
    },
    (figures) => {
      if (!figures) return;
      latest = { ...latest, counts: figures };
      onFigures(latest);
    },
    onError,
  );
  const booksPart = follower(
    async () => holders && (await bookFigures(holders)),
    (books) => {
      if (!books) return;
      latest = { ...latest, books };
      onFigures(latest);
    },
    onError,
  );
  const onAnswer = (answer: CountsAnswer) => {
    if (answer.part === 'counts') {
      counts = answer.counts;
      void countsPart.run();
    } else {
      holders = answer.holders;
      void booksPart.run();
    }
  };
  const unwatch = watchCounts({ counts: COUNTED, sets: bookSets }, onAnswer, onError);
  const onMutated = (changed: Record<string, unknown>) => {
    const tables = mutatedTables(db, changed);
    if (tables.has(catalogue.tables.school)) {
      forget('school');
      void countsPart.run();
    }
    if (tables.has(catalogue.tables.book)) {
      forget('book');
      void booksPart.run();
    }
  };
  Dexie.on('storagemutated', onMutated);
  return () => {
    unwatch();
    countsPart.close();
    booksPart.close();
    Dexie.on('storagemutated').unsubscribe(onMutated);
  };
}
