/**
 * The one way the app changes data. Each change writes the record and its outbox entry in
 * ONE read-write transaction, so a crash can never leave one without the other (rule 1).
 *
 * Unsent entries of the same record are folded here (rule 6): an edit of a record whose
 * add or edit has never been sent merges into that entry, and deleting a record whose add
 * was never sent removes both and sends nothing; a delete drops the record's unsent edits when
 * nothing else was queued after them. An entry that has been sent at least once
 * may already be applied on the server, so it is never changed (rule 2).
 *
 * Each entry is stamped with the administrator signed in on the device, read in
 * the same transaction; only their own entries (or those without an author) are folded into
 * or dropped: another administrator's waiting changes stay theirs, and a change made on top
 * of them is queued after them. A change the signed-in role may not make is refused first,
 * with nothing written (mutations/role-guard.ts).
 */

import type { LocalDb } from './database';
import { readSignedInUser } from './meta';
import { addRecord } from './mutations/add';
import type { Change, MutationResult } from './mutations/change';
import { deleteRecord } from './mutations/delete';
import { existing } from './mutations/outbox-steps';
import { relateRecord } from './mutations/relate';
import { refuseOutsideRole } from './mutations/role-guard';
import { setField } from './mutations/set-field';
import { updateRecord } from './mutations/update';

export {
  type Change,
  type MutationResult,
  OutsideRoleError,
  RecordNotFoundError,
  StillUsedError,
  type Values,
} from './mutations/change';

/**
 * One change, in one transaction over every table (a delete looks for children in the other
 * entities' tables): who is signed in, the record it changes, then the operation's own file in
 * mutations/ (add, update, set-field, relate, delete; the steps they share in outbox-steps.ts).
 */
export async function mutate(db: LocalDb, change: Change): Promise<MutationResult> {
  const { entity } = change;
  return db.transaction('rw', db.tables, async () => {
    await refuseOutsideRole(db, entity);
    const author = await readSignedInUser(db);
    if (change.op === 'add') return addRecord(db, entity, change.values, author);
    const record = await existing(db, entity, change.key, author);
    switch (change.op) {
      case 'update':
        return updateRecord(db, entity, change.key, change.values, record, author);
      case 'set':
        return setField(db, entity, change.action, change.value, record, author);
      case 'relate':
        return relateRecord(db, entity, change.relation, change.ids, record, author);
      case 'delete':
        return deleteRecord(db, entity, record, author);
    }
  });
}
