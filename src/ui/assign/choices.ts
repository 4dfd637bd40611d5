/**
 * The records offered on an assignment screen: sorted by title (numbers inside as numbers),
 * found by a search of their titles, and told apart by their parents' names when two read the
 * same ('Class 1 · Mathematics · Number Fun').
 */
import type { EntityDescription } from '../../contract/entity';
import { parentName } from '../../contract/parent-names';
import type { Row } from '../data';

/** The choices shown for a search: every one when it is empty, in title order. */
export function shownChoices(target: EntityDescription, choices: readonly Row[], search: string): Row[] {
  const needle = search.trim().toLowerCase();
  const title = (row: Row) => parentName(target, row);
  const all = [...choices].sort((a, b) => title(a).localeCompare(title(b), undefined, { numeric: true }));
  return needle ? all.filter((row) => title(row).toLowerCase().includes(needle)) : all;
}
