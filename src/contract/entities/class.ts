import { defineEntity } from '../entity';

/** Class (spec §3): class_id, class_name, sort_order. Endpoints: api-contract §3.2. */
export const classEntity = defineEntity({
  name: 'class',
  table: 'classes',
  key: 'class_id',
  names: { one: 'class', One: 'Class', many: 'classes', Many: 'Classes' },
  fields: {
    class_name: { kind: 'text', label: 'Class Name', required: true, wire: 'className', maxLength: 255 },
    // No input for it: Update Class sends the loaded value back unchanged (api-contract §3.2).
    sort_order: { kind: 'number', label: 'Sort Order', wire: { update: 'sortOrder' }, initial: 0 },
  },
  api: {
    list: 'Masterfilter/Classes/fetchclasses.php',
    listField: 'classes',
    get: 'Masterfilter/Classes/getClass.php',
    getField: 'class',
    add: 'Masterfilter/Classes/addclasses.php',
    update: 'Masterfilter/Classes/updateclasses.php',
    updateIdIn: 'body',
    remove: 'Masterfilter/Classes/deleteclasses.php',
    encoding: 'json',
  },
  routes: {
    list: '/classes',
    add: '/addclasses',
    edit: '/updateclass',
    menu: { group: 'MASTERFILTERS', order: 1, label: 'Classes' },
  },
  list: {
    columns: [{ field: 'class_name', header: 'Class Name' }],
    search: ['class_name'],
    sort: { field: 'class_id', dir: 'asc' },
    pageSize: 10,
  },
  title: 'class_name',
  form: ['class_name'],
  confirmDelete: 'Are you sure you want to delete this class?',
});
