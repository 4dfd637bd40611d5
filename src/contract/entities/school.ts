import { defineEntity } from '../entity';
import {
  assignedBooks,
  city,
  contactNumber,
  country,
  email,
  locationColumn,
  PICTURE_HINT,
  password,
  picture,
  state,
  status,
  statusColumn,
  statusToggle,
} from './people';

const FOLDER = 'Users/Schools';

/**
 * School (spec §3), api-contract §3.9: `getSchool.php` replies flat, the update id travels in
 * the query string, `profilePic` carries the logo (a gif too on update), and the books
 * assigned to the school are a set with its own endpoints.
 */
export const schoolEntity = defineEntity({
  name: 'school',
  table: 'schools',
  key: 'school_id',
  title: 'school_name',
  names: { one: 'school', One: 'School', many: 'schools', Many: 'Schools' },
  fields: {
    school_name: { kind: 'text', label: 'School Name', required: true, wire: 'schoolName', maxLength: 255 },
    school_address: {
      kind: 'text',
      label: 'School Address',
      required: true,
      wire: 'schoolAddress',
      multiline: true,
    },
    password,
    email,
    contact_no: contactNumber,
    country,
    state,
    city,
    school_logo: {
      kind: 'file',
      label: 'School Logo',
      wire: 'profilePic',
      hint: PICTURE_HINT,
      file: picture('school_logo', {
        typesOnUpdate: ['jpg', 'jpeg', 'png', 'gif'],
        hintOnUpdate: '(max size: 2 MB, jpg/jpeg/png/gif)',
        replaceLabel: 'Add New',
      }),
    },
    status,
  },
  api: {
    list: `${FOLDER}/fetchschools.php`,
    listField: 'schools',
    get: `${FOLDER}/getSchool.php`,
    getField: null,
    add: `${FOLDER}/addschools.php`,
    update: `${FOLDER}/updateschools.php`,
    updateIdIn: 'query',
    remove: `${FOLDER}/deleteschool.php`,
    encoding: 'multipart',
    reads: {
      name: {
        path: `${FOLDER}/fetchschoolname.php`,
        method: 'POST',
        field: 'school_name',
        reply: 'school_name',
      },
    },
  },
  routes: {
    list: '/schools',
    add: '/addschools',
    edit: '/updateschools',
    import: '/schools/import',
    menu: { group: 'USERS', order: 1, label: 'Schools' },
  },
  list: {
    columns: [
      { field: 'school_name', header: 'School Name' },
      { field: 'school_address', header: 'Address', priority: 'medium' },
      { field: 'email', header: 'Contact Info', also: ['contact_no'], priority: 'low' },
      { ...locationColumn, header: 'Location Info', priority: 'medium' },
      { kind: 'image', field: 'school_logo', header: 'Logo', width: 100, round: true },
      statusColumn,
    ],
    search: ['school_name'],
    sort: { field: 'school_id', dir: 'asc' },
    pageSize: 10,
    actions: {
      header: 'Actions',
      items: ['edit', { label: 'Assign Books', to: '/assignbookschools' }, 'delete'],
    },
  },
  form: [
    'school_name',
    'school_address',
    'password',
    'email',
    'contact_no',
    'country',
    'state',
    'city',
    'school_logo',
  ],
  cascadeIn: ['add', 'update'],
  actions: { status: statusToggle(`${FOLDER}/toggleschoolstatus.php`, 'School', 'school') },
  relations: { books: assignedBooks(FOLDER, 'assignbook.php', '/assignbookschools') },
});
