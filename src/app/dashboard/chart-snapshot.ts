/**
 * The chart figures the dashboard last showed on this device, kept in localStorage so that a
 * fresh load paints the charts from them beside the three figures, while the list worker
 * loads its index and counts every row again (seconds on a slow tablet with a hundred thousand
 * students); the counted figures then replace them. A few kilobytes (ten schools, ten books,
 * thirteen weeks), of names the device's store holds already; read synchronously, so the
 * first render has them.
 */
import type { ChartFigures } from './chart-figures';

const KEY = 'dashboard-chart-figures';
/** Moves when ChartFigures changes shape: a snapshot of another shape is not read. */
const SHAPE = 1;

export function readChartSnapshot(): ChartFigures | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (kept?.shape !== SHAPE) return null;
    const { counts, books } = kept.figures as ChartFigures;
    // JSON has no dates: the weeks' starts come back as text.
    for (const week of counts?.teachersPerWeek ?? []) week.start = new Date(week.start);
    return { counts: counts ?? null, books: books ?? null };
  } catch {
    return null;
  }
}

/** Keeps what the charts show now for the next load (storage full or refused: the next load counts). */
export function keepChartSnapshot(figures: ChartFigures): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ shape: SHAPE, figures }));
  } catch {
    // Without a snapshot the next load waits for the count, as a first visit does.
  }
}
