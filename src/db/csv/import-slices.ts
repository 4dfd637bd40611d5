/**
 * What each slice of a CSV import queued (imports.ts): the outbox seqs of its entries and the
 * file line of each, one small record per slice in `importSlices`, keyed [import, at] (`at`:
 * the position the slice started from). A slice writes only what it adds: the import's record
 * once carried every pair so far and was rewritten whole by every slice, so a slice's write
 * grew with the import (up to 20,000 numbers at 10,000 rows). Kept apart from imports.ts
 * because the store's name is declared with the store (database.ts), on the first load's path:
 * no more than this here (the reads and writes are in imports.ts, with the records of schema 8).
 */
export const SLICES_STORE = 'importSlices';

export interface ImportSlice {
  import: string;
  /** The import's position when the slice began (its first row). */
  at: number;
  /** Outbox seqs of the entries queued, and the file line of each. */
  seqs: number[];
  lines: number[];
}
