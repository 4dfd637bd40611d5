/**
 * Whether the signed-in role may change an entity, for the screens that offer changes (kept
 * apart from role.ts: the first load, whose menus come per role from the catalogue, carries
 * no role rules).
 */
import { useRef } from 'react';
import { mayChange } from '../contract/accounts/roles';
import type { EntityDescription } from '../contract/entity';
import { useRole } from './role';

/** Whether the signed-in role may change records of `entity` (add, edit, delete, toggle, import). */
export const useMayChange = (entity: Pick<EntityDescription, 'name'>): boolean =>
  mayChange(useRole(), entity);

/**
 * Like useMayChange, but a screen once offered for changing stays so: a role taken away while
 * the administrator types (a pull) must not take the form and what was typed with it; the
 * save is then refused with the server's words (db/mutations/role-guard.ts), the values kept.
 */
export function useMayStartChanging(entity: Pick<EntityDescription, 'name'>): boolean {
  const may = useMayChange(entity);
  const offered = useRef(false);
  if (may) offered.current = true;
  return offered.current;
}
