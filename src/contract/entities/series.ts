import { defineEntity } from '../entity';
import { classRef, parentColumns, subjectRef } from './refs';

/** Series (spec §3). api-contract §3.4. Add and Update Series list every class and subject. */
export const seriesEntity = defineEntity({
  name: 'series',
  table: 'series',
  key: 'series_id',
  title: 'series_name',
  names: { one: 'series', One: 'Series', many: 'series', Many: 'Series' },
  fields: {
    class_id: classRef,
    subject_id: subjectRef,
    series_name: { kind: 'text', label: 'Series Name', required: true, wire: 'seriesName', maxLength: 255 },
  },
  api: {
    list: 'Masterfilter/Series/fetchseries.php',
    listField: 'series',
    get: 'Masterfilter/Series/getSeries.php',
    getField: 'series',
    add: 'Masterfilter/Series/addseries.php',
    update: 'Masterfilter/Series/updateseries.php',
    updateIdIn: 'body',
    remove: 'Masterfilter/Series/deleteseries.php',
    encoding: 'json',
  },
  routes: {
    list: '/series',
    add: '/addseries',
    edit: '/updateseries',
    menu: { group: 'MASTERFILTERS', order: 3, label: 'Series' },
  },
  list: {
    columns: [{ field: 'series_name', header: 'Series Name' }, parentColumns.class, parentColumns.subject],
    search: ['series_name'],
    sort: { field: 'series_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['class_id', 'subject_id', 'series_name'],
  cascadeIn: [],
  confirmDelete: 'Are you sure you want to delete this series?',
  filters: [{ param: 'subject_id' }],
  lookups: [{ path: 'Masterfilter/Book/fetchseriesforbooks.php', params: ['class_id', 'subject_id'] }],
});
