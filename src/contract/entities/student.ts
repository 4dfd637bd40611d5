import { defineEntity } from '../entity';
import {
  assignedBooks,
  assignedColumn,
  city,
  contactColumn,
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
  zipcode,
} from './people';

const FOLDER = 'Users/Students';

/**
 * Student (spec §3), api-contract §3.11: `className` carries the class NAME (the select's
 * values are class names), on add and, when sent, on update; the update id travels in the body.
 */
export const studentEntity = defineEntity({
  name: 'student',
  table: 'students',
  key: 'student_id',
  title: 'student_name',
  names: { one: 'student', One: 'Student', many: 'students', Many: 'Students' },
  fields: {
    student_name: {
      kind: 'text',
      label: 'Student Name',
      required: true,
      wire: 'studentName',
      maxLength: 255,
    },
    email,
    password,
    contact_no: contactNumber,
    school_id: {
      kind: 'ref',
      ref: 'school',
      refName: 'school_name',
      label: 'School',
      required: true,
      wire: 'school',
    },
    class_name: { kind: 'text', label: 'Class', wire: 'className', namesOf: 'class', maxLength: 255 },
    country,
    state: { ...state, required: false },
    city: { ...city, required: false },
    zipcode,
    profile_pic: {
      kind: 'file',
      label: 'Profile Picture',
      wire: 'profilePic',
      hint: PICTURE_HINT,
      file: picture('students', { replaceLabel: 'Add New Profile Pic' }),
    },
    status,
  },
  api: {
    list: `${FOLDER}/fetchstudents.php`,
    listField: 'students',
    get: `${FOLDER}/getstudents.php`,
    getField: 'student',
    add: `${FOLDER}/addstudents.php`,
    update: `${FOLDER}/updatestudents.php`,
    updateIdIn: 'body',
    remove: `${FOLDER}/deletestudent.php`,
    encoding: 'multipart',
    reads: {
      name: {
        path: `${FOLDER}/fetchstudentname.php`,
        method: 'POST',
        field: 'student_name',
        reply: 'student_name',
      },
    },
  },
  routes: {
    list: '/students',
    add: '/addstudents',
    edit: '/updatestudents',
    import: '/students/import',
    menu: { group: 'USERS', order: 3, label: 'Students' },
  },
  list: {
    columns: [
      { field: 'student_name', header: 'Name' },
      { field: 'school_name', header: 'School Name', priority: 'medium' },
      // Not among the spec's columns: behind More on a tablet, so that a student's class shows somewhere.
      { field: 'class_name', header: 'Class', priority: 'low' },
      contactColumn,
      locationColumn,
      assignedColumn,
      { kind: 'image', field: 'profile_pic', header: 'Profile Pic', priority: 'low' },
      statusColumn,
    ],
    search: ['student_name'],
    sort: { field: 'student_id', dir: 'asc' },
    pageSize: 10,
    actions: {
      header: 'Actions',
      items: ['edit', { label: 'Assign Books', to: '/assignbookstudent' }, 'delete'],
    },
  },
  texts: { searchPlaceholder: 'Search by student' },
  form: [
    'student_name',
    'email',
    'password',
    'contact_no',
    'country',
    'state',
    'city',
    'zipcode',
    'school_id',
    'class_name',
    'profile_pic',
  ],
  cascadeIn: ['add', 'update'],
  actions: { status: statusToggle(`${FOLDER}/togglestudentstatus.php`, 'Student', 'student') },
  relations: { books: assignedBooks(FOLDER, 'assignbook.php', '/assignbookstudent', 'assigned_books') },
});
