/**
 * An import slice's edits and statuses (imports.ts), queued as one `mutate` per row would queue
 * them: for each row in file order its edit, then its status as a change of its own (a status
 * never folds into an edit: mutations/set-field.ts), each based on the row as the change before
 * left it. Rows with nothing queued for them, and the status of a row this slice added (its one
 * entry is its unsent add), are written in bulk (db/mutations/quiet-rows.ts: one bulkPut and one bulkAdd for
 * the run of them); the others (a row with a change waiting) go through `mutate`, after what was
 * gathered before them is written, so the outbox order is the one-by-one path's. An edit that
 * sets a unique field (an e-mail) or the parent a rule is within goes through `mutate` too, which
 * checks it against the records as the changes before it left them; an edit of other fields
 * keeps the record's unique values, so no rule can refuse it (refuse-duplicates.ts).
 */
import type { EntityDescription, Op } from '../../contract/entity';
import { uniqueRules } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { readSignedInUser } from '../meta';
import { mutate } from '../mutate';
import { quietKeys, RowBatch, rowsByKey } from '../mutations/quiet-rows';
import { refuseOutsideRole } from '../mutations/role-guard';
import { foldsIntoAdd, setEntry } from '../mutations/set-field';
import { updateEntry } from '../mutations/update';

/** A checked row of the file (imports.ts `ReadyRow`). */
interface SliceRow {
  line: number;
  op: Op;
  key?: string;
  values: Record<string, string>;
  status?: string;
}

export interface EditsQueued {
  /** A new entry for this line. */
  queued: (seq: number, line: number) => void;
  /** The entry `mutate` answered for this line (perhaps an earlier one it was folded into). */
  note: (entryId: string | null, line: number) => Promise<void>;
}

export async function queueEdits(
  db: LocalDb,
  entity: EntityDescription,
  slice: readonly SliceRow[],
  keyOf: (row: SliceRow) => string | undefined,
  /** The rows this slice added (temporary ids), as written: their only entry is their unsent add. */
  added: ReadonlyMap<string, Row>,
  told: EditsQueued,
  /** The signed-in user, when the caller has read it in this transaction (else read here). */
  signedIn?: string,
): Promise<void> {
  await refuseOutsideRole(db, entity);
  const edited = slice.flatMap((row) => (row.op === 'update' && row.key ? [row.key] : []));
  const quiet = await rowsByKey(db, entity, await quietKeys(db, entity, edited));
  const uniqueFields = new Set(
    uniqueRules(entity).flatMap((r) => (r.within ? [r.field, r.within] : [r.field])),
  );
  const author = signedIn ?? (await readSignedInUser(db));
  const statusField = entity.actions?.status?.field ?? 'status';
  const batch = new RowBatch(db, entity);
  let batchLines: number[] = [];
  const flush = async () => {
    const seqs = await batch.flush();
    seqs.forEach((seq, i) => {
      told.queued(seq, batchLines[i]);
    });
    batchLines = [];
  };
  for (const row of slice) {
    const key = keyOf(row);
    const edit = row.op === 'update' && Object.keys(row.values).length > 0;
    const { status, line } = row;
    if (!key || (!edit && status === undefined)) continue;
    // A row added in this slice: a status is its own change after the add (unless the status
    // travels with an add, when mutate folds it into the add's entry).
    const justAdded = !edit && !foldsIntoAdd(entity, 'status') ? added.get(key) : undefined;
    const current = quiet.get(key) ?? justAdded;
    const setsUnique = edit && Object.keys(row.values).some((field) => uniqueFields.has(field));
    if (current && !batch.has(key) && !setsUnique) {
      let now: Row = current;
      if (edit) {
        const entry = updateEntry(author, entity, key, row.values, now);
        now = { ...now, ...row.values, [entity.key]: key };
        batch.put(key, now, entry);
        batchLines.push(line);
      }
      if (status !== undefined) {
        batch.put(
          key,
          { ...now, [statusField]: status },
          setEntry(author, entity, 'status', key, status, now),
        );
        batchLines.push(line);
      }
      continue;
    }
    if (!batch.empty) await flush();
    if (edit)
      await told.note((await mutate(db, { op: 'update', entity, key, values: row.values })).entryId, line);
    if (status !== undefined)
      await told.note(
        (await mutate(db, { op: 'set', entity, key, action: 'status', value: status })).entryId,
        line,
      );
  }
  if (!batch.empty) await flush();
}
