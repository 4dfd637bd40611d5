/**
 * Chapters list: each row's Add Question button opens /addquestion carrying the chapter's
 * class, subject, series, book and chapter ids and names (spec §2).
 */
import { Link } from '@tanstack/react-router';
import type { Row } from '../../ui/data';
import type { ExtraColumn } from '../../ui/ListScreen';

const CARRIED = ['class', 'subject', 'series', 'book'] as const;

export function questionSearch(row: Row): Record<string, string> {
  const search: Record<string, string> = {
    chapter_id: String(row.chapter_id ?? ''),
    chapter_name: String(row.chapter_title ?? ''),
  };
  for (const level of CARRIED) {
    search[`${level}_id`] = String(row[`${level}_id`] ?? '');
    search[`${level}_name`] = String(row[`${level}_name`] ?? '');
  }
  return search;
}

export const chapterColumns: ExtraColumn[] = [
  {
    header: 'Add Question',
    cell: (row) => (
      <Link to="/addquestion" search={questionSearch(row) as never} className="button button-small">
        Add Question
      </Link>
    ),
  },
];
