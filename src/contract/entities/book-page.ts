import { defineEntity } from '../entity';
import { parentColumns } from './refs';

/** Page images: scans of printed pages, up to 10 MB each (larger ones travel in resumable chunks). */
const PAGE_IMAGE_HINT = 'png, jpg or jpeg (max size: 10 MB each)';

/**
 * Book page (spec §3: page_id, page_title, page_number, chapter_id, chapter_name, book_id,
 * book_name, image_path), api-contract §3.13, all in `Resources/`. Pages live inside one book:
 * /managebookpages/{book_id} lists them, /addbookpages/{book_id} adds them, and /bookpages picks
 * the book. `chapterName` carries a chapter id. An add takes several images (`file-0..n`, or one
 * `image` from older clients), one page each, numbered from the page number given upward, or
 * after the book's last page. The page number changes only through updatePageNumber.php (a
 * value action), drawn in the list as an input held unsaved until its save button is pressed.
 * Add and update succeed silently and return to /bookpages (spec §8).
 */
export const bookPageEntity = defineEntity({
  name: 'bookPage',
  table: 'book_pages',
  key: 'page_id',
  title: 'page_title',
  names: { one: 'page', One: 'Page', many: 'pages', Many: 'Pages' },
  fields: {
    // From the route: the page's book is never chosen in a form (and update does not send it).
    book_id: {
      kind: 'ref',
      ref: 'book',
      refName: 'book_name',
      label: 'Book',
      required: true,
      wire: { add: 'book_id' },
    },
    page_title: { kind: 'text', label: 'Page Title', required: true, wire: 'pageTitle', maxLength: 255 },
    chapter_id: {
      kind: 'ref',
      ref: 'chapter',
      refName: 'chapter_name',
      label: 'Chapter',
      required: true,
      wire: 'chapterName',
      dependsOn: ['book_id'],
    },
    page_number: {
      kind: 'number',
      label: 'Page Number',
      wire: 'pageNumber',
      min: 1,
      flagUsed: { within: 'book_id' },
    },
    image_path: {
      kind: 'file',
      label: 'Page Image',
      required: true,
      wire: { add: 'file-0', update: 'image' },
      hint: PAGE_IMAGE_HINT,
      file: { folder: 'book_pages', types: ['png', 'jpg', 'jpeg'], maxBytes: 10 * 1024 * 1024 },
      several: {
        prefix: 'file-',
        single: 'image',
        numbering: { field: 'page_number', within: 'book_id' },
      },
    },
  },
  api: {
    list: 'Resources/fetchbookpages.php',
    listField: 'bookPages',
    get: 'Resources/getpagedetails.php',
    getField: 'page',
    add: 'Resources/addbookpages.php',
    update: 'Resources/updatebookpage.php',
    updateIdIn: 'body',
    remove: 'Resources/deletebookpage.php',
    encoding: 'multipart',
    sortParams: 'sort',
  },
  routes: {
    list: '/managebookpages',
    add: '/addbookpages',
    edit: '/updatebookpage',
    afterSave: '/bookpages',
    menu: { group: 'RESOURCES', order: 3, label: 'Book Pages' },
    within: {
      field: 'book_id',
      picker: {
        route: '/bookpages',
        columns: [
          { field: 'book_name', header: 'Book Name' },
          parentColumns.class,
          { field: 'subject_name', header: 'Subject Name' },
        ],
        texts: {
          listTitle: 'Book Pages',
          searchPlaceholder: 'Search by book name',
          empty: 'No books found.',
        },
        links: [
          { label: 'Manage Book Pages', to: '/managebookpages' },
          { label: '+ Add Pages', to: '/addbookpages' },
        ],
      },
    },
  },
  list: {
    columns: [
      { field: 'page_title', header: 'Page Title' },
      { kind: 'action', action: 'pageNumber', header: 'Page Number' },
      { field: 'chapter_name', header: 'Chapter Name', priority: 'low' },
      // The list is inside one book, named above it.
      { field: 'book_name', header: 'Book Name', priority: 'low' },
      {
        kind: 'image',
        field: 'image_path',
        header: 'Page Image',
        width: 50,
        opens: true,
        priority: 'medium',
      },
    ],
    search: ['page_title'],
    sort: { field: 'page_number', dir: 'asc' },
    pageSize: 10,
    pageSizes: [10, 25, 50, 100],
    actions: { header: 'Actions', items: ['edit', 'delete'] },
  },
  texts: {
    listTitle: 'Manage Book Pages',
    addButton: '+ Add Pages',
    addTitle: 'Add Book Pages',
    addSubmit: 'Add Pages',
    editTitle: 'Update Book Page',
    searchPlaceholder: 'Search Pages',
    empty: 'No book pages found.',
  },
  notices: {
    added: null,
    updated: null,
    failedAdd: 'Failed to add page',
    failedUpdate: 'Failed to update page',
  },
  form: ['page_title', 'chapter_id', 'page_number', 'image_path'],
  cascadeIn: ['add', 'update'],
  confirmDelete: 'Are you sure you want to delete this page?',
  actions: {
    pageNumber: {
      path: 'Resources/updatePageNumber.php',
      field: 'page_number',
      wire: 'new_page_number',
      value: 'field',
      notices: ['Page number updated successfully', 'Failed to update page number'],
      saveLabel: 'Save page number',
    },
  },
  filters: [{ param: 'book_id' }],
});
