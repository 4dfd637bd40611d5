import { defineEntity } from '../entity';

/** Subject (spec §3): subject_id, subject_name, subject_content (rich text). api-contract §3.3. */
export const subjectEntity = defineEntity({
  name: 'subject',
  table: 'subjects',
  key: 'subject_id',
  title: 'subject_name',
  names: { one: 'subject', One: 'Subject', many: 'subjects', Many: 'Subjects' },
  fields: {
    subject_name: {
      kind: 'text',
      label: 'Subject Name',
      required: true,
      wire: 'subjectName',
      maxLength: 255,
    },
    subject_content: { kind: 'richtext', label: 'Subject Content', required: true, wire: 'subjectContent' },
  },
  api: {
    list: 'Masterfilter/Subjects/fetchsubjects.php',
    listField: 'subjects',
    get: 'Masterfilter/Subjects/getSubject.php',
    getField: 'subject',
    add: 'Masterfilter/Subjects/addsubjects.php',
    update: 'Masterfilter/Subjects/updatesubjects.php',
    updateIdIn: 'body',
    remove: 'Masterfilter/Subjects/deletesubjects.php',
    encoding: 'json',
  },
  routes: {
    list: '/subjects',
    add: '/addsubjects',
    edit: '/updatesubject',
    menu: { group: 'MASTERFILTERS', order: 2, label: 'Subjects' },
  },
  list: {
    columns: [{ field: 'subject_name', header: 'Subject Name' }],
    search: ['subject_name'],
    sort: { field: 'subject_id', dir: 'asc' },
    pageSize: 10,
  },
  form: ['subject_name', 'subject_content'],
  confirmDelete: 'Are you sure you want to delete this subject?',
  // Subjects have no class column: a subject belongs to a class through a series of both.
  filters: [{ param: 'class_id', via: 'series' }],
});
