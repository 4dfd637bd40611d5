/**
 * The dashboard's charts, computed on the device: people per school (the
 * ten schools with the most, then the others together), active and inactive records, the
 * most assigned books and teachers added per week. The counts by a field come from the list
 * engine (its `counts`, in the list worker for the window); this file turns them into what the
 * charts show, and counts assigned books through the sets' multi-entry indexes (an index
 * count per book: no row is read). No DOM, no React.
 */
import type { LocalDb } from '../database';

/** How many of the top records a chart shows before "Others". */
export const TOP = 10;

/** Ties in a ranking: ids as numbers (the record added first), records made here after them. */
export function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : Number.POSITIVE_INFINITY;
  const nb = /^\d+$/.test(b) ? Number(b) : Number.POSITIVE_INFINITY;
  return na - nb || (a < b ? -1 : a > b ? 1 : 0);
}

export interface SchoolShare {
  /** The school's id; none for the others together. */
  id?: string;
  students: number;
  teachers: number;
  /** How many schools the line stands for (1, or the others' number). */
  schools: number;
}

/**
 * The `top` schools with the most students and teachers together (ties: more students first,
 * then the school added first), and the rest as one line when there is a rest. Rows naming no
 * school are left out (the server requires one).
 */
export function schoolShares(
  students: Readonly<Record<string, number>>,
  teachers: Readonly<Record<string, number>>,
  top = TOP,
): SchoolShare[] {
  const ids = new Set([...Object.keys(students), ...Object.keys(teachers)]);
  ids.delete('');
  const shares = [...ids].map((id) => ({
    id,
    students: students[id] ?? 0,
    teachers: teachers[id] ?? 0,
    schools: 1,
  }));
  shares.sort(
    (a, b) =>
      b.students + b.teachers - (a.students + a.teachers) ||
      b.students - a.students ||
      compareIds(a.id, b.id),
  );
  const rest = shares.slice(top);
  if (rest.length === 0) return shares;
  const others: SchoolShare = { students: 0, teachers: 0, schools: rest.length };
  for (const s of rest) {
    others.students += s.students;
    others.teachers += s.teachers;
  }
  return [...shares.slice(0, top), others];
}

export interface ActiveShare {
  active: number;
  inactive: number;
}

/**
 * Active and inactive records from the counts by status: Disabled is inactive (the spec's
 * Pending Approvals counts the same), any other value active (a new record starts Enabled).
 */
export function activeShare(byStatus: Readonly<Record<string, number>>): ActiveShare {
  let active = 0;
  for (const [status, n] of Object.entries(byStatus)) if (status !== 'Disabled') active += n;
  return { active, inactive: byStatus.Disabled ?? 0 };
}

/** How many records of each owner (schools, teachers, students: by table) hold a book. */
export type Holders = Readonly<Record<string, number>>;

export interface BookShare {
  id: string;
  holders: Holders;
  total: number;
}

/** The `top` books the most records hold (ties: the book added first). */
export function mostAssigned(byBook: ReadonlyMap<string, Holders>, top = TOP): BookShare[] {
  const books = [...byBook].map(([id, holders]) => ({
    id,
    holders,
    total: Object.values(holders).reduce((s, n) => s + n, 0),
  }));
  books.sort((a, b) => b.total - a.total || compareIds(a.id, b.id));
  return books.slice(0, top);
}

/**
 * The recount the tests compare the worker's holders with (the worker keeps them in memory from
 * the rows written: db/list-engine/set-holders.ts). For each book some record holds, how many records of each
 * owning table hold it: the
 * multi-entry index of each set gives the books held (its unique keys) and, per book, the
 * holders' number (an index count). One read transaction per table, side by side: one over
 * the three would wait for any write to any of them (a pull, a delivery) before it starts.
 */
export async function assignedBookCounts(
  db: LocalDb,
  sets: readonly { table: string; relation: string }[],
): Promise<Map<string, Record<string, number>>> {
  const perSet = await Promise.all(
    sets.map((set) => {
      const table = db.table(set.table);
      return db.transaction('r', table, async () => {
        const books = await table.orderBy(set.relation).uniqueKeys();
        const counts = await Promise.all(books.map((b) => table.where(set.relation).equals(b).count()));
        return books.map((book, i) => [String(book), counts[i]] as const);
      });
    }),
  );
  const out = new Map<string, Record<string, number>>();
  sets.forEach((set, i) => {
    for (const [id, n] of perSet[i]) {
      const holders = out.get(id) ?? {};
      holders[set.table] = n;
      out.set(id, holders);
    }
  });
  return out;
}

export interface WeekCount {
  /** The week's Monday, 00:00 local time. */
  start: Date;
  count: number;
}

/** A stored date: ISO 8601 (our server) or 'YYYY-MM-DD HH:MM:SS' (the PHP server); NaN if neither. */
export function parseStoredDate(value: string): number {
  return Date.parse(/^\d{4}-\d\d-\d\d \d/.test(value) ? value.replace(' ', 'T') : value);
}

/** Monday 00:00 (local time) of the week holding `day`. */
export function weekStart(day: Date): Date {
  const offset = (day.getDay() + 6) % 7;
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - offset);
}

/**
 * Records added per week (weeks from Monday, local time) over the `weeks` weeks up to and
 * including the current one (13: three months), oldest first, from counts by the date added.
 * A record without a date was added on this device and is not yet sent (the server sets the
 * date): it counts in the current week, as does a date after now (another clock); dates
 * before the first week and values that are no date are left out.
 */
export function weeklyAdded(byDate: Readonly<Record<string, number>>, now: Date, weeks = 13): WeekCount[] {
  const current = weekStart(now);
  const starts = Array.from(
    { length: weeks },
    (_, i) => new Date(current.getFullYear(), current.getMonth(), current.getDate() - 7 * (weeks - 1 - i)),
  );
  const out = starts.map((start) => ({ start, count: 0 }));
  const bounds = starts.map((s) => s.getTime());
  for (const [value, n] of Object.entries(byDate)) {
    const at = value === '' ? now.getTime() : parseStoredDate(value);
    if (Number.isNaN(at) || at < bounds[0]) continue;
    let i = bounds.length - 1;
    while (bounds[i] > at) i--;
    out[i].count += n;
  }
  return out;
}
