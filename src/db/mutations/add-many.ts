/**
 * Many adds of one entity in the caller's transaction, written in bulk (an import's slice):
 * the rows in one `bulkPut` and their outbox entries in one `bulkAdd`, so the list index's
 * middleware updates each chunk once per slice instead of once per row (one `mutate` per row
 * cost about 11 ms a row at 100,000 students: 115 s for 10,000 rows). Each entry is what
 * `mutate` would have queued for the add (an add has nothing to fold into). Unique fields (an
 * e-mail) are checked for all the adds at once, as `mutate` would refuse them one by one
 * (refuse-duplicates.ts `refuseDuplicateAdds`): a duplicate refuses the whole call, nothing
 * written. Answers each add's key and outbox seq, in order, and the rows as written (an
 * import's statuses start from them: db/csv/import-edits.ts).
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { newTempId } from '../ids';
import { readSignedInUser } from '../meta';
import type { Values } from '../mutate';
import { initialValues, newEntry } from './outbox-steps';
import { refuseDuplicateAdds } from './refuse-duplicates';
import { refuseOutsideRole } from './role-guard';

export async function addMany(
  db: LocalDb,
  entity: EntityDescription,
  values: readonly Values[],
  /** The signed-in user, when the caller has read it in this transaction (else read here). */
  signedIn?: string,
): Promise<{ keys: string[]; seqs: number[]; rows: Row[] }> {
  return db.transaction('rw', db.tables, async () => {
    await refuseOutsideRole(db, entity);
    await refuseDuplicateAdds(db, entity, values);
    const author = signedIn ?? (await readSignedInUser(db));
    const initial = initialValues(entity);
    const keys = values.map(() => newTempId());
    const rows = values.map((v, i): Row => ({ ...initial, ...v, [entity.key]: keys[i] }));
    const entries = values.map((v, i) => newEntry(author, entity, 'add', keys[i], { ...v }, null));
    // Issued together: the entries are copied into their requests while the rows' write and the
    // list index's reads for it go on (IndexedDB keeps the requests' order: rows, then entries).
    const [, seqs] = await Promise.all([
      db.rows(entity).bulkPut(rows),
      db.outbox.bulkAdd(entries, { allKeys: true }),
    ]);
    return { keys, seqs: seqs as number[], rows };
  });
}
