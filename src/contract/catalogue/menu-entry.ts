/** The words of the top bar's menus: the groups, an entity's entry, a menu as shown (menus.ts). */

/** The menus, in the top bar's order. */
export const MENU_GROUPS = ['MASTERFILTERS', 'RESOURCES', 'USERS', 'CMS', 'SETTINGS'] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/**
 * An entry of a menu. `order` places it among its group's entries (ascending); `to` defaults
 * to the entity's parent picker, else its list, else a single document's edit screen.
 */
export interface MenuEntry {
  group: MenuGroup;
  order: number;
  label: string;
  to?: string;
}

export interface MenuLink {
  label: string;
  to: string;
}

export interface Menu {
  label: MenuGroup;
  links: MenuLink[];
}
