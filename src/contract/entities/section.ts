import { defineEntity } from '../entity';
import { bookLevelColumns, bookLevels } from './refs';

/** Section (spec §3), api-contract §3.6. Both forms cascade; update carries the id in the query. */
export const sectionEntity = defineEntity({
  name: 'section',
  table: 'sections',
  key: 'section_id',
  title: 'section_name',
  names: { one: 'section', One: 'Section', many: 'sections', Many: 'Sections' },
  fields: {
    ...bookLevels,
    section_name: {
      kind: 'text',
      label: 'Section Name',
      required: true,
      wire: 'sectionName',
      maxLength: 255,
    },
  },
  api: {
    list: 'Masterfilter/Sections/fetchsections.php',
    listField: 'sections',
    get: 'Masterfilter/Sections/getSection.php',
    getField: 'section',
    add: 'Masterfilter/Sections/addsections.php',
    update: 'Masterfilter/Sections/updatesections.php',
    updateIdIn: 'query',
    remove: 'Masterfilter/Sections/deletesection.php',
    encoding: 'json',
  },
  routes: {
    list: '/sections',
    add: '/addsections',
    edit: '/updatesection',
    menu: { group: 'MASTERFILTERS', order: 5, label: 'Sections' },
  },
  list: {
    columns: [{ field: 'section_name', header: 'Section Name' }, ...bookLevelColumns],
    search: ['section_name'],
    sort: { field: 'section_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['class_id', 'subject_id', 'series_id', 'book_id', 'section_name'],
  cascadeIn: ['add', 'update'],
  confirmDelete: 'Are you sure you want to delete this section?',
  filters: [{ param: 'book_id' }],
  lookups: [
    {
      path: 'Masterfilter/Sections/fetchsectionforunit.php',
      params: ['class_id', 'subject_id', 'series_id', 'book_id'],
    },
  ],
});
