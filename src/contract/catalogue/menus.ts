/**
 * The top bar's menus (spec §1), made from the entity descriptions as routes are: each
 * description names its entry (EntityRoutes.menu: group, place, words), and the catalogue
 * (entity-catalogue.ts) gathers them at build time. A newcomer's entity appears in its menu with no
 * second declaration. Screens that are not an entity's own (the audit trail, duplicate records) are listed here.
 */
import { isOwner, mayChange, ROLES, type Role } from '../accounts/roles';
import type { EntityDescription } from '../entity';
import type { CatalogueScreen } from './entity-catalogue';
import { MENU_GROUPS, type Menu, type MenuEntry } from './menu-entry';

export { MENU_GROUPS, type Menu, type MenuEntry, type MenuGroup, type MenuLink } from './menu-entry';

/**
 * Screens of ours that no entity owns (the server's record of every change, the administrators).
 * Which of them a role sees is the window's choice (src/app/role.ts).
 */
export const SCREEN_MENU_ENTRIES: readonly MenuEntry[] = [
  { group: 'SETTINGS', order: 1, label: 'Audit Trail', to: '/audit' },
  { group: 'SETTINGS', order: 2, label: 'Duplicate Records', to: '/duplicates' },
  { group: 'SETTINGS', order: 3, label: 'Administrators', to: '/administrators' },
  { group: 'SETTINGS', order: 4, label: 'My account', to: '/account' },
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

/** Screens only an Owner opens (administrators, the audit trail). */
const OWNER_ROUTES: ReadonlySet<string> = new Set(['/administrators', '/audit']);

/** Screens that only change data: adding, importing, replacing a set (Assign Books). */
const CHANGING_SCREENS: ReadonlySet<string> = new Set(['add', 'import', 'relation']);

/**
 * Whether a link to `to` is worth showing to `role`: an Owner's screen only to an Owner, a
 * changing screen only to a role that may change its entity. Lists and edit forms (read-only
 * for the others) are everyone's.
 */
export function mayOpenScreen(role: Role, to: string, screens: readonly CatalogueScreen[]): boolean {
  if (OWNER_ROUTES.has(to)) return isOwner(role);
  const screen = screens.find((s) => s.path === to || s.path === `${to}/$id`);
  if (!screen || !CHANGING_SCREENS.has(screen.screen)) return true;
  return mayChange(role, { name: screen.entity });
}

/**
 * The menus as each role sees them (links it may not use left out, and a menu left empty),
 * computed with the catalogue at build time: the first load carries no role rules.
 */
export function menusByRole(
  menus: readonly Menu[],
  screens: readonly CatalogueScreen[],
): Record<Role, Menu[]> {
  const of = (role: Role) =>
    menus
      .map((menu) => ({ ...menu, links: menu.links.filter((link) => mayOpenScreen(role, link.to, screens)) }))
      .filter((menu) => menu.links.length > 0);
  return Object.fromEntries(ROLES.map((role) => [role, of(role)])) as Record<Role, Menu[]>;
}
