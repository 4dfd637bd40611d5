/**
 * The signed-in role for the screens: the meta table followed live (a pull may change it
 * while a screen is open), and until it is read, what this window last knew (session.ts), so
 * the first paint of menus and buttons does not flash what the role cannot use.
 */
import { useEffect } from 'react';
import { readRole } from '../app/accounts/signed-in-role';
import { knownRole, noteRole } from '../app/session';
import type { Role } from '../contract/accounts/roles';
import { useLiveQuery } from './live-query';

export function useRole(): Role {
  const role = useLiveQuery(readRole, [], null);
  useEffect(() => {
    if (role) noteRole(role);
  }, [role]);
  return role ?? knownRole();
}
