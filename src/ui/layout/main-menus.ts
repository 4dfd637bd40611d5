/**
 * The top bar's menus (spec §1), as the entity descriptions declare them (contract/catalogue/menus.ts),
 * computed at build time into the catalogue: the first load carries the menus, not the
 * descriptions.
 */
import { catalogue } from '../../app/catalogue/built-catalogue';
import type { Menu } from '../../contract/catalogue/menus';

export type { Menu, MenuLink } from '../../contract/catalogue/menus';

export const MENUS: readonly Menu[] = catalogue.menus;

/** The menus as `role` sees them (links it may not use left out), computed at build time. */
export const menusOf = (role: string): readonly Menu[] => catalogue.roleMenus[role] ?? MENUS;
