/**
 * What each route asks of the signed-in role, for the screens' links (row actions). Lists are
 * everyone's; what a role may not use is not offered and, were it reached anyway, refused
 * before anything is queued (db/mutations/role-guard.ts). The menus use the same rule, applied
 * at build time (contract/catalogue/menus.ts).
 */
import type { Role } from '../../contract/accounts/roles';
import { mayOpenScreen } from '../../contract/catalogue/menus';
import { catalogue } from '../catalogue/built-catalogue';

export const mayOpen = (role: Role, to: string): boolean => mayOpenScreen(role, to, catalogue.screens);
