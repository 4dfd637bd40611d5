/**
 * Many adds of one entity in the caller's transaction, written in bulk (an import's slice):
 * the rows in one `bulkPut` and their outbox entries in one `bulkAdd`, so the list index's
 * middleware updates each chunk once per slice instead of once per row (one `mutate` per row
 * cost about 11 ms a row at 100,000 students: 115 s for 10,000 rows). Each entry is what
 * `mutate` would have queued for the add (an add has nothing to fold into); an entity with
 * unique fields goes through `mutate` row by row, which refuses a duplicate of a held record.
 * Answers each add's key and outbox seq, in order, and the rows as written when they were
 * written in bulk (an import's statuses start from them: db/csv/import-edits.ts).
 */
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb, Row } from '../database';
import { newTempId } from '../ids';
import { readSignedInUser } from '../meta';
import { mutate, type Values } from '../mutate';
import { initialValues, newEntry } from './outbox-steps';
import { refuseOutsideRole } from './role-guard';

export async function addMany(
  db: LocalDb,
  entity: EntityDescription,
  values: readonly Values[],
  /** The signed-in user, when the caller has read it in this transaction (else read here). */
  signedIn?: string,
): Promise<{ keys: string[]; seqs: number[]; rows?: Row[] }> {
  return db.transaction('rw', db.tables, async () => {
    await refuseOutsideRole(db, entity);
    if (Object.values(entity.fields).some((f) => f.unique)) {
      const keys: string[] = [];
      const ids: string[] = [];
      for (const v of values) {
        const added = await mutate(db, { op: 'add', entity, values: v });
        keys.push(added.key);
        if (added.entryId) ids.push(added.entryId);
      }
      const seqs = await Promise.all(
        ids.map(async (id) => (await db.outbox.where('id').equals(id).primaryKeys())[0]),
      );
      return { keys, seqs };
    }
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
