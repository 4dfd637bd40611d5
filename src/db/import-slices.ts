/**
 * What each slice of a CSV import queued (imports.ts): the outbox seqs of its entries and the
 * file line of each, one small record per slice in `importSlices`, keyed [import, at] (`at`:
 * the position the slice started from). A slice writes only what it adds: the import's record
 * once carried every pair so far and was rewritten whole by every slice, so a slice's write
 * grew with the import (up to 20,000 numbers at 10,000 rows). Kept apart from imports.ts
 * because the store's upgrade below is opened with the store (database.ts), on the first
 * load's path: no more than this here (the reads and writes are in imports.ts).
 */
import type { Transaction } from 'dexie';

export const SLICES_STORE = 'importSlices';

export interface ImportSlice {
  import: string;
  /** The import's position when the slice began (its first row). */
  at: number;
  /** Outbox seqs of the entries queued, and the file line of each. */
  seqs: number[];
  lines: number[];
}

/**
 * Local schema 9: a record of schema 8 kept its pairs in `seqs` and `lines`; they become its
 * import's first slice (at 0: a slice queued after them starts at the record's position, above
 * 0), and the record loses them.
 */
export async function moveImportPairs(tx: Transaction): Promise<void> {
  const imports = tx.table('imports');
  const old = await imports.filter((r) => Array.isArray(r.seqs)).toArray();
  await tx
    .table(SLICES_STORE)
    .bulkPut(
      old
        .filter((r) => r.seqs.length > 0)
        .map((r): ImportSlice => ({ import: r.id, at: 0, seqs: r.seqs, lines: r.lines })),
    );
  await imports.bulkPut(old.map(({ seqs, lines, ...record }) => record));
}
