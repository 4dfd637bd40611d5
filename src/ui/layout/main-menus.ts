/**
 * The top bar's menus (spec §1), as the entity descriptions declare them (contract/catalogue/menus.ts),
 * computed at build time into the catalogue: the first load carries the menus, not the
 * descriptions.
 */
import { catalogue } from '../../app/catalogue/built-catalogue';
import type { Menu } from '../../contract/catalogue/menus';

export type { Menu, MenuLink } from '../../contract/catalogue/menus';

export const MENUS: readonly Menu[] = catalogue.menus;
