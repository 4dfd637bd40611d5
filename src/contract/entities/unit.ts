import { defineEntity } from '../entity';
import { bookLevelColumns, bookLevels, parentColumns, sectionRef } from './refs';

/** Unit (spec §3), api-contract §3.7. Headers sort; the section is optional. */
export const unitEntity = defineEntity({
  name: 'unit',
  table: 'units',
  key: 'unit_id',
  title: 'unit_title',
  names: { one: 'unit', One: 'Unit', many: 'units', Many: 'Units' },
  fields: {
    ...bookLevels,
    section_id: sectionRef,
    unit_title: { kind: 'text', label: 'Unit Title', required: true, wire: 'unitTitle', maxLength: 255 },
  },
  api: {
    list: 'Masterfilter/Units/fetchunits.php',
    listField: 'units',
    get: 'Masterfilter/Units/getUnit.php',
    getField: 'unit',
    add: 'Masterfilter/Units/addunits.php',
    update: 'Masterfilter/Units/updateunit.php',
    updateIdIn: 'query',
    remove: 'Masterfilter/Units/deleteunit.php',
    encoding: 'json',
    sortParams: 'sortColumn',
  },
  routes: {
    list: '/units',
    add: '/addunits',
    edit: '/updateunit',
    menu: { group: 'MASTERFILTERS', order: 6, label: 'Units' },
  },
  list: {
    columns: [{ field: 'unit_title', header: 'Unit Title' }, ...bookLevelColumns, parentColumns.section],
    search: ['unit_title'],
    sort: { field: 'unit_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['class_id', 'subject_id', 'series_id', 'book_id', 'section_id', 'unit_title'],
  cascadeIn: ['add', 'update'],
  confirmDelete: 'Are you sure you want to delete this unit?',
  lookups: [
    {
      path: 'Masterfilter/Book/fetchunitforchapter.php',
      params: ['class_id', 'subject_id', 'series_id', 'book_id', 'section_id'],
    },
  ],
});
