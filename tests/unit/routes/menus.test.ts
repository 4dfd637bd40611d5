/**
 * The top bar's menus come from the entity descriptions, like routes: the spec's
 * menus (§1) are what the descriptions declare, and a newcomer's entity appears in its menu,
 * at its place, with no second declaration.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/app/catalogue/catalogue-source';
import {
  catalogueMenus,
  type Menu,
  type MenuEntry,
  type MenuLink,
  menusByRole,
  SCREEN_MENU_ENTRIES,
} from '../../../src/contract/catalogue/menus';
import { entities } from '../../../src/contract/entities';
import { fixtureWidgetV1 } from '../../helpers/fixture-entities';
import { placeOf } from '../../helpers/source-lines';

const THIS_FILE = 'tests/unit/routes/menus.test.ts';

const SPEC_MENUS = [
  {
    label: 'MASTERFILTERS',
    links: [
      { label: 'Classes', to: '/classes' },
      { label: 'Subjects', to: '/subjects' },
      { label: 'Series', to: '/series' },
      { label: 'Books', to: '/books' },
      { label: 'Sections', to: '/sections' },
      { label: 'Units', to: '/units' },
      { label: 'Chapters', to: '/chapters' },
    ],
  },
  {
    label: 'RESOURCES',
    links: [
      { label: 'Resource Types', to: '/resource-types' },
      { label: 'Library', to: '/library' },
      { label: 'Book Pages', to: '/bookpages' },
      { label: 'Question Bank', to: '/question-bank' },
    ],
  },
  {
    label: 'USERS',
    links: [
      { label: 'Schools', to: '/schools' },
      { label: 'Teachers', to: '/teachers' },
      { label: 'Students', to: '/students' },
    ],
  },
  {
    label: 'CMS',
    links: [
      { label: 'About Us', to: '/updateaboutus' },
      { label: 'Terms and Conditions', to: '/addterms' },
    ],
  },
  {
    label: 'SETTINGS',
    links: [
      { label: 'Audit Trail', to: '/audit' },
      { label: 'Duplicate Records', to: '/duplicates' },
      { label: 'Administrators', to: '/administrators' },
      { label: 'My account', to: '/account' },
    ],
  },
];

describe('menus from the descriptions', () => {
  it('are the spec’s menus, in its order, with the audit trail and duplicate records under Settings', () => {
    const menus = catalogueMenus(entities);
    expect(menus, pinnedMenuEdits(menus).join('\n')).toEqual(SPEC_MENUS);
  });

  it('place a new entity in its group at its order, with its list as the target', () => {
    const before = catalogueMenus(entities);
    const menus = catalogueMenus([...entities, fixtureWidgetV1]);
    const group = menus.find((m) => m.label === 'MASTERFILTERS')!;
    const at = group.links.findIndex((l) => l.label === 'Fixture Widgets');
    expect(group.links[at]).toEqual({ label: 'Fixture Widgets', to: '/fixture-widgets' });
    // Its place: after every link of a lower order, before every link of a higher one (1.5).
    expect(group.links.slice(0, at).every((l) => orderOf(l) <= 1.5)).toBe(true);
    expect(group.links.slice(at + 1).every((l) => orderOf(l) > 1.5)).toBe(true);
    // Nothing else moves.
    expect(menus.map((m) => ({ ...m, links: m.links.filter((l) => l !== group.links[at]) }))).toEqual(before);
  });

  it('leave out an entity without a menu entry, and a group without entries', () => {
    const menus = catalogueMenus(
      entities.filter((e) => e.name !== 'aboutUs'),
      [],
    );
    expect(menus.map((m) => m.label)).toEqual(['MASTERFILTERS', 'RESOURCES', 'USERS']);
  });
});

/** The order an entity's (or a screen's) menu entry declares for a link. */
function orderOf(link: MenuLink): number {
  const declared: MenuEntry[] = [...SCREEN_MENU_ENTRIES];
  for (const e of entities) declared.push(...[e.routes.menu ?? []].flat());
  const entry = declared.find((d) => d.label === link.label);
  if (!entry) throw new Error(`No menu entry declares ${link.label}`);
  return entry.order;
}

const linkLine = (l: MenuLink) => `{ label: '${l.label}', to: '${l.to}' },`;

/**
 * What to change in SPEC_MENUS above when the menus the descriptions declare differ from it:
 * a newcomer's entity with `routes.menu` adds a link, and the failure names the line to add.
 */
function pinnedMenuEdits(menus: Menu[]): string[] {
  const same = (a: MenuLink, b: MenuLink) => a.label === b.label && a.to === b.to;
  const edits: string[] = [];
  for (const menu of menus) {
    const pinned = SPEC_MENUS.find((m) => m.label === menu.label)?.links ?? [];
    menu.links.forEach((link, i) => {
      if (pinned.some((p) => same(p, link))) return;
      const isPinned = (l: MenuLink) => pinned.some((p) => same(p, l));
      const after = menu.links.slice(0, i).findLast(isPinned);
      const before = menu.links.slice(i + 1).find(isPinned);
      const next = (l: MenuLink) => `${placeOf(THIS_FILE, linkLine(l))} (\`${linkLine(l)}\`)`;
      const where = after
        ? `after ${next(after)}`
        : before
          ? `before ${next(before)}`
          : `as the first link after ${placeOf(THIS_FILE, `label: '${menu.label}'`)}`;
      edits.push(`  add \`${linkLine(link)}\` under '${menu.label}', ${where}`);
    });
  }
  for (const menu of SPEC_MENUS)
    for (const link of menu.links)
      if (!menus.find((m) => m.label === menu.label)?.links.some((l) => same(l, link)))
        edits.push(`  remove \`${linkLine(link)}\` from SPEC_MENUS at ${placeOf(THIS_FILE, linkLine(link))}`);
  const lead =
    'The menus the entity descriptions declare (routes.menu) are not the ones this test pins. ' +
    `If the change is meant (a new entity's menu entry), update SPEC_MENUS in ${THIS_FILE}:`;
  return [
    lead,
    ...(edits.length > 0 ? edits : ['  the same links in another order: follow the received list']),
  ];
}

describe('menus by role', () => {
  const linksOf = (menus: readonly Menu[]) => menus.flatMap((m) => m.links.map((l) => l.label));
  const built = buildCatalogue();

  it('every role reads every list; only an Owner sees Administrators and the Audit Trail', () => {
    const byRole = menusByRole(built.menus, built.screens);
    expect(built.roleMenus).toEqual(byRole);
    expect(byRole.Owner).toEqual(built.menus);
    for (const role of ['Editor', 'School manager', 'Viewer'] as const) {
      const links = linksOf(byRole[role]);
      expect(links).toEqual(
        expect.arrayContaining(['Classes', 'Schools', 'Students', 'About Us', 'My account']),
      );
      expect(links).not.toContain('Administrators');
      expect(links).not.toContain('Audit Trail');
    }
  });

  it('leaves out a link that only adds: Terms and Conditions opens About Us’s add screen', () => {
    const byRole = menusByRole(built.menus, built.screens);
    expect(linksOf(byRole.Editor)).toContain('Terms and Conditions');
    expect(linksOf(byRole['School manager'])).not.toContain('Terms and Conditions');
    expect(linksOf(byRole.Viewer)).not.toContain('Terms and Conditions');
  });
});
