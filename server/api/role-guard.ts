/**
 * Who may write what (src/contract/accounts/roles.ts), checked before a write item runs: a
 * write outside the administrator's role is refused with a 403 before its handler writes
 * anything, alone or in a batch (where only that item fails).
 */
import { cannotChange, isOwner, mayChange, type Role } from '../../src/contract/accounts/roles';
import { type ApiReply, type ApiRoute, refuse } from '../entities/handler';
import { TEXT } from '../http/reply';

/** The refusal of `route` to `role`, or null when the role may run it. */
export function roleRefusal(route: ApiRoute, role: Role): ApiReply | null {
  if (!route.writes) return null;
  // A write that names no entity is nobody's but an Owner's: a route added without one fails
  // closed instead of open.
  if (!route.entity) return isOwner(role) ? null : refuse(403, TEXT.forbidden);
  return mayChange(role, route.entity) ? null : refuse(403, cannotChange(role, route.entity));
}
