/**
 * Issue 19: the top bar's menus come from the entity descriptions, like routes: the spec's
 * menus (§1) are what the descriptions declare, and a newcomer's entity appears in its menu,
 * at its place, with no second declaration.
 */
import { describe, expect, it } from 'vitest';
import { entities } from '../../src/contract/entities';
import { catalogueMenus } from '../../src/contract/menu';
import { fixtureWidgetV1 } from '../helpers/fixture-entities';

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
  { label: 'SETTINGS', links: [{ label: 'Audit Trail', to: '/audit' }] },
];

describe('menus from the descriptions', () => {
  it('are the spec’s menus, in its order, with the audit trail under Settings', () => {
    expect(catalogueMenus(entities)).toEqual(SPEC_MENUS);
  });

  it('place a new entity in its group at its order, with its list as the target', () => {
    const menus = catalogueMenus([...entities, fixtureWidgetV1]);
    expect(menus[0].links.map((l) => l.label)).toEqual([
      'Classes',
      'Fixture Widgets',
      'Subjects',
      'Series',
      'Books',
      'Sections',
      'Units',
      'Chapters',
    ]);
    expect(menus[0].links[1]).toEqual({ label: 'Fixture Widgets', to: '/fixture-widgets' });
  });

  it('leave out an entity without a menu entry, and a group without entries', () => {
    const menus = catalogueMenus(
      entities.filter((e) => e.name !== 'aboutUs'),
      [],
    );
    expect(menus.map((m) => m.label)).toEqual(['MASTERFILTERS', 'RESOURCES', 'USERS']);
  });
});
