/**
 * The parent selects shared by the master-data forms (wire names `selectedX`, api-contract
 * §3.4-3.8), with the cascade each takes where a form cascades (spec §4): class loads
 * subjects, subject loads series, series loads books, book loads sections, section loads units.
 */
import type { FieldSpec } from '../entity';

export const classRef = {
  kind: 'ref',
  ref: 'class',
  refName: 'class_name',
  label: 'Class',
  required: true,
  wire: 'selectedClass',
} as const satisfies FieldSpec;

export const subjectRef = {
  kind: 'ref',
  ref: 'subject',
  refName: 'subject_name',
  label: 'Subject',
  required: true,
  wire: 'selectedSubject',
  dependsOn: ['class_id'],
} as const satisfies FieldSpec;

export const seriesRef = {
  kind: 'ref',
  ref: 'series',
  refName: 'series_name',
  label: 'Series',
  required: true,
  wire: 'selectedSeries',
  dependsOn: ['class_id', 'subject_id'],
} as const satisfies FieldSpec;

export const bookRef = {
  kind: 'ref',
  ref: 'book',
  refName: 'book_name',
  label: 'Book',
  required: true,
  wire: 'selectedBook',
  dependsOn: ['class_id', 'subject_id', 'series_id'],
} as const satisfies FieldSpec;

/** Optional: sent as '' when none is chosen. */
export const sectionRef = {
  kind: 'ref',
  ref: 'section',
  refName: 'section_name',
  label: 'Section',
  wire: 'selectedSection',
  dependsOn: ['book_id'],
} as const satisfies FieldSpec;

export const unitRef = {
  kind: 'ref',
  ref: 'unit',
  refName: 'unit_title',
  label: 'Unit',
  wire: 'selectedUnit',
  dependsOn: ['book_id', 'section_id'],
} as const satisfies FieldSpec;

/** Column headers of parents' names in the lists. */
export const parentColumns = {
  class: { field: 'class_name', header: 'Class' },
  subject: { field: 'subject_name', header: 'Subject' },
  series: { field: 'series_name', header: 'Series' },
  book: { field: 'book_name', header: 'Book' },
  section: { field: 'section_name', header: 'Section' },
} as const;

/** The four levels above a book's contents (sections, units, chapters), in cascade order. */
export const bookLevels = {
  class_id: classRef,
  subject_id: subjectRef,
  series_id: seriesRef,
  book_id: bookRef,
} as const;

/**
 * Their names as list columns. On a portrait tablet the levels above the book move behind
 * the row's More (the book, which they describe, stays).
 */
export const bookLevelColumns = [
  { ...parentColumns.class, priority: 'medium' },
  { ...parentColumns.subject, priority: 'medium' },
  { ...parentColumns.series, priority: 'medium' },
  parentColumns.book,
] as const;
