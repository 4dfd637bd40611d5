import { defineEntity } from '../entity';
import { classRef, parentColumns, seriesRef, subjectRef } from './refs';

const COVER_HINT = '(max size: 2 MB, jpg/jpeg/png/gif)';

/**
 * Book (spec §3), api-contract §3.5. `status` is the popular flag, changed only through
 * togglePopular.php with the new value. Add Book cascades series from class and subject;
 * Update Book lists every class, subject and series.
 */
export const bookEntity = defineEntity({
  name: 'book',
  table: 'books',
  key: 'book_id',
  title: 'book_name',
  names: { one: 'book', One: 'Book', many: 'books', Many: 'Books' },
  fields: {
    class_id: { ...classRef },
    subject_id: { ...subjectRef, dependsOn: [] },
    series_id: seriesRef,
    book_name: { kind: 'text', label: 'Book Name', required: true, wire: 'bookName', maxLength: 255 },
    book_code: { kind: 'text', label: 'Book Code', required: true, wire: 'bookCode', maxLength: 255 },
    activity_folder_name: {
      kind: 'text',
      label: 'Activity Folder Name',
      wire: { add: 'activityFolderName' },
      maxLength: 255,
    },
    file_to_access: {
      kind: 'text',
      label: 'File to Access',
      wire: { add: 'fileToAccess' },
      maxLength: 255,
    },
    book_download_link: {
      kind: 'url',
      label: 'Book Download Link',
      wire: 'bookDownloadLink',
      maxLength: 2048,
    },
    android_download_link: {
      kind: 'url',
      label: 'TPG Download Link',
      wire: 'androidDownloadLink',
      maxLength: 2048,
    },
    book_description: { kind: 'text', label: 'Book Description', wire: 'bookDescription', multiline: true },
    book_cover: {
      kind: 'file',
      label: 'Book Cover',
      wire: 'bookCover',
      hint: COVER_HINT,
      file: { folder: 'book_cover', types: ['jpg', 'jpeg', 'png', 'gif'], maxBytes: 2 * 1024 * 1024 },
    },
    status: { kind: 'status', label: 'Status', initial: 'Disabled' },
  },
  api: {
    list: 'Masterfilter/Book/fetchbooks.php',
    listField: 'books',
    get: 'Masterfilter/Book/getBook.php',
    getField: 'book',
    add: 'Masterfilter/Book/addbooks.php',
    update: 'Masterfilter/Book/updatebooks.php',
    updateIdIn: 'body',
    remove: 'Masterfilter/Book/deletebooks.php',
    encoding: 'multipart',
    // The book pages screens read a book here (api-contract §3.13).
    alsoGet: ['Resources/fetchbookdetails.php'],
  },
  routes: {
    list: '/books',
    add: '/addbooks',
    edit: '/updatebook',
    menu: { group: 'MASTERFILTERS', order: 4, label: 'Books' },
  },
  list: {
    columns: [
      { field: 'book_name', header: 'Book Name' },
      parentColumns.class,
      { ...parentColumns.subject, priority: 'low' },
      { ...parentColumns.series, priority: 'low' },
      { field: 'book_cover', header: 'Cover Image', kind: 'image', priority: 'medium' },
      // Disable when the book is popular (status Enabled), Enable otherwise (spec §2).
      { kind: 'action', action: 'popular', header: 'Make Popular' },
    ],
    search: ['book_name'],
    sort: { field: 'book_id', dir: 'asc' },
    pageSize: 10,
  },
  form: [
    'class_id',
    'subject_id',
    'series_id',
    'book_name',
    'book_code',
    'activity_folder_name',
    'file_to_access',
    'book_download_link',
    'android_download_link',
    'book_description',
    'book_cover',
  ],
  updateForm: [
    'class_id',
    'subject_id',
    'series_id',
    'book_name',
    'book_code',
    'book_download_link',
    'android_download_link',
    'book_description',
    'book_cover',
  ],
  cascadeIn: ['add'],
  confirmDelete: 'Are you sure you want to delete this book?',
  actions: {
    popular: {
      path: 'Masterfilter/Book/togglePopular.php',
      field: 'status',
      wire: 'status',
      messages: {
        Enabled: ['Book enabled successfully', 'Failed to enable Book'],
        Disabled: ['Book disabled successfully', 'Failed to disable Book'],
      },
    },
  },
  filters: [{ param: 'series_id' }],
  lookups: [
    { path: 'Masterfilter/Book/fetchbookforsection.php', params: ['class_id', 'subject_id', 'series_id'] },
  ],
});
