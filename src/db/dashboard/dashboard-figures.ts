/**
 * The dashboard's figures (spec §2) from the local store, so they hold offline and change at
 * once after a change: teachers added, teachers with status Disabled (Pending Approvals), and
 * books assigned to no school, no teacher and no student. Table names come from the caller
 * (the window's entity catalogue), so this runs without the full descriptions.
 */
import type { LocalDb } from '../database';
import { readSyncState } from '../meta';

export interface DashboardFigures {
  teachers: number;
  pendingApprovals: number;
  booksNotAssigned: number;
}

export interface FigureTables {
  teachers: string;
  books: string;
  /** The tables and fields of every set of book ids (assigned books). */
  bookSets: readonly { table: string; relation: string }[];
}

/**
 * The figures; null on a device whose first sync has not completed, where counting what has
 * arrived so far would show an office "0 teachers" for a moment, or a count still climbing.
 */
export async function dashboardFigures(db: LocalDb, tables: FigureTables): Promise<DashboardFigures | null> {
  const teachers = db.table(tables.teachers);
  const books = db.table(tables.books);
  const owners = tables.bookSets.map((s) => db.table(s.table));
  return db.transaction('r', [db.meta, teachers, books, ...owners], async () => {
    if ((await readSyncState(db)).lastSyncedAt === null) return null;
    const assigned = new Set<unknown>();
    // The multi-entry index lists every book some record holds, without reading the records.
    for (const set of tables.bookSets)
      for (const id of await db.table(set.table).orderBy(set.relation).uniqueKeys()) assigned.add(id);
    const bookIds = await books.toCollection().primaryKeys();
    return {
      teachers: await teachers.count(),
      // The status index (the teachers list's total counts by it: database.ts): one count, no
      // row read, where a filter read all 5,000 teachers of the benchmark on every rerun.
      pendingApprovals: await teachers.where('status').equals('Disabled').count(),
      booksNotAssigned: bookIds.filter((id) => !assigned.has(id)).length,
    };
  });
}
