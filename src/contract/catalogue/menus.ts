/**
 * The top bar's menus (spec §1), made from the entity descriptions as routes are: each
 * description names its entry (EntityRoutes.menu: group, place, words), and the catalogue
 * (entity-catalogue.ts) gathers them at build time. A newcomer's entity appears in its menu with no
 * second declaration. Screens that are not an entity's own (the audit trail, duplicate records) are listed here.
 */
import type { EntityDescription } from '../entity';
import { MENU_GROUPS, type Menu, type MenuEntry } from './menu-entry';

export { MENU_GROUPS, type Menu, type MenuEntry, type MenuGroup, type MenuLink } from './menu-entry';

/** Screens of ours that no entity owns (the server's record of every change). */
export const SCREEN_MENU_ENTRIES: readonly MenuEntry[] = [
  { group: 'SETTINGS', order: 1, label: 'Audit Trail', to: '/audit' },
  { group: 'SETTINGS', order: 2, label: 'Duplicate Records', to: '/duplicates' },
];

function defaultTarget(e: EntityDescription): string | undefined {
  const { within, list, edit, add } = e.routes;
  return within?.picker?.route ?? list ?? (e.single ? edit : add);
}

/** The menus with their links, each group's in order; groups without an entry are left out. */
export function catalogueMenus(
  entities: readonly EntityDescription[],
  screens: readonly MenuEntry[] = SCREEN_MENU_ENTRIES,
): Menu[] {
  const entries: (MenuEntry & { to: string })[] = [];
  for (const e of entities) {
    const declared = e.routes.menu;
    for (const entry of declared === undefined ? [] : Array.isArray(declared) ? declared : [declared]) {
      const to = entry.to ?? defaultTarget(e);
      if (!to) throw new Error(`Entity ${e.name}: its menu entry “${entry.label}” has no screen to open`);
      entries.push({ ...entry, to });
    }
  }
  for (const entry of screens) if (entry.to) entries.push({ ...entry, to: entry.to });
  return MENU_GROUPS.map((label) => ({
    label,
    links: entries
      .filter((entry) => entry.group === label)
      .sort((a, b) => a.order - b.order)
      .map(({ label: text, to }) => ({ label: text, to })),
  })).filter((menu) => menu.links.length > 0);
}
