import { defineEntity } from '../entity';
import { CONTENT_MAX_LENGTH } from './about-us';

/**
 * Terms and Conditions, a rich-text document of its own: our extension (no public version of
 * the PHP API has Terms endpoints, api-contract §3.17). `CMS/Terms/getterms.php` answers
 * `{success, content}`; `CMS/Terms/updateterms.php` takes JSON `{content}` and stores the one
 * document whether or not it existed. Against a server without them the screen says so and
 * nothing is queued (`extension`).
 */
export const termsEntity = defineEntity({
  name: 'terms',
  table: 'terms',
  key: 'id',
  title: 'content',
  names: {
    one: 'terms and conditions',
    One: 'Terms and Conditions',
    many: 'terms and conditions',
    Many: 'Terms and Conditions',
  },
  fields: {
    content: {
      kind: 'richtext',
      label: 'Terms and Conditions',
      required: true,
      wire: 'content',
      maxLength: CONTENT_MAX_LENGTH,
    },
  },
  api: {
    get: 'CMS/Terms/getterms.php',
    update: 'CMS/Terms/updateterms.php',
    encoding: 'json',
  },
  routes: { edit: '/updateterms' },
  list: { columns: [], search: [], sort: { field: 'id', dir: 'asc' }, pageSize: 1 },
  texts: { editTitle: 'Update Terms and Conditions', editSubmit: 'Update Content' },
  form: ['content'],
  single: { id: 'terms' },
  extension: true,
});
