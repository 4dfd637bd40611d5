/**
 * The signed-in administrator's role as the screens read it: the meta table, the truth mutate
 * also reads, kept by sign-in and every pull. Apart from the role rules (role.ts), which the
 * first load does not carry.
 */
import type { Role } from '../../contract/accounts/roles';
import { readSignedInRole } from '../../db/meta';
import { db } from '../window-context';

export const readRole = (): Promise<Role> => readSignedInRole(db);
