/**
 * The device's half of the roles (contract/accounts/roles.ts): a change the server would refuse
 * for the role is refused here before anything is written, offline too, so no outbox entry
 * waits only to fail. Called inside the caller's transaction, so the role read is the one the
 * change is stamped under.
 */
import { cannotChange, mayChange } from '../../contract/accounts/roles';
import type { EntityDescription } from '../../contract/entity';
import type { LocalDb } from '../database';
import { readSignedInRole } from '../meta';
import { OutsideRoleError } from './change';

export async function refuseOutsideRole(db: LocalDb, entity: EntityDescription): Promise<void> {
  const role = await readSignedInRole(db);
  if (!mayChange(role, entity)) throw new OutsideRoleError(cannotChange(role, entity));
}
