/** Screen-level differences of the spec that the generic screens do not cover. */
import type { ExtraColumn } from '../../ui/ListScreen';
import { bookColumns } from './books';
import { chapterColumns } from './chapters';

export const listColumnOverrides: Readonly<Record<string, readonly ExtraColumn[]>> = {
  book: bookColumns,
  chapter: chapterColumns,
};
