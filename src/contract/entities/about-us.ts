import { defineEntity } from '../entity';

/** Longest content accepted: a long page of formatted text (images are URLs, never inline). */
export const CONTENT_MAX_LENGTH = 200_000;

/**
 * About Us (spec §3: content, rich-text HTML), api-contract §3.17: one document without an id on
 * the wire. `getaboutus.php` answers `{success, content}`; `addaboutus.php` and
 * `updateaboutus.php` take JSON `{content}`, and on our server both store the one document
 * (an add when it exists replaces its content; an update when it does not creates it).
 * /addterms opens the same editor on the same endpoints, as the spec says; Terms have their
 * own document on our server (terms.ts).
 */
export const aboutUsEntity = defineEntity({
  name: 'aboutUs',
  table: 'about_us',
  key: 'id',
  title: 'content',
  // 'Failed to add content', 'Failed to update content' (spec §8).
  names: { one: 'content', One: 'Content', many: 'content', Many: 'Content' },
  fields: {
    content: {
      kind: 'richtext',
      label: 'About Us Content',
      required: true,
      wire: 'content',
      maxLength: CONTENT_MAX_LENGTH,
    },
  },
  api: {
    get: 'CMS/Aboutus/getaboutus.php',
    add: 'CMS/Aboutus/addaboutus.php',
    update: 'CMS/Aboutus/updateaboutus.php',
    encoding: 'json',
  },
  routes: {
    add: '/addaboutus',
    edit: '/updateaboutus',
    menu: [
      { group: 'CMS', order: 1, label: 'About Us' },
      // As in the original app, the menu's Terms and Conditions opens /addterms, this entity's alias.
      { group: 'CMS', order: 2, label: 'Terms and Conditions', to: '/addterms' },
    ],
    addAliases: [
      {
        path: '/addterms',
        note: 'As in the original app, this screen saves the About Us content through the About Us endpoints.',
      },
    ],
  },
  list: { columns: [], search: [], sort: { field: 'id', dir: 'asc' }, pageSize: 1 },
  texts: {
    addTitle: 'Add About Us Content',
    addSubmit: 'Save Content',
    editTitle: 'Update About Us Content',
    editSubmit: 'Update Content',
  },
  form: ['content'],
  single: { id: 'aboutus' },
});
