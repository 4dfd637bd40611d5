/** The top bar's menus (spec §1). Screens that later releases build show a placeholder. */
export interface MenuLink {
  label: string;
  to: string;
}

export interface Menu {
  label: string;
  links: MenuLink[];
}

export const MENUS: Menu[] = [
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
    // Ours, not the spec's (issue 18): the server's record of every change.
    label: 'SETTINGS',
    links: [{ label: 'Audit Trail', to: '/audit' }],
  },
];
