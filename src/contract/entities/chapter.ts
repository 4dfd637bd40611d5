import { defineEntity } from '../entity';
import { bookLevels, parentColumns, sectionRef, unitRef } from './refs';

/**
 * Chapter (spec §3), api-contract §3.8. Add Chapter cascades (class first, as the cascade
 * needs); Update Chapter lists every row in the spec's order. The image goes to
 * chapter_content: 10 MB on add, 2 MB on update; add sends the text `null` without a file.
 */
export const chapterEntity = defineEntity({
  name: 'chapter',
  table: 'chapters',
  key: 'chapter_id',
  title: 'chapter_title',
  names: { one: 'chapter', One: 'Chapter', many: 'chapters', Many: 'Chapters' },
  fields: {
    ...bookLevels,
    section_id: sectionRef,
    unit_id: unitRef,
    chapter_title: {
      kind: 'text',
      label: 'Chapter Name',
      required: true,
      wire: 'chapterName',
      maxLength: 255,
    },
    chapter_description: {
      kind: 'text',
      label: 'Chapter Description',
      wire: 'chapterDescription',
      multiline: true,
    },
    chapter_image: {
      kind: 'file',
      label: 'Chapter Image',
      wire: 'chapterImage',
      hint: 'Supported media: jpg, jpeg, png, pdf (max 10MB)',
      file: {
        folder: 'chapter_content',
        types: ['jpg', 'jpeg', 'png', 'gif', 'pdf'],
        maxBytes: 10 * 1024 * 1024,
        maxBytesOnUpdate: 2 * 1024 * 1024,
        nullWhenEmptyOnAdd: true,
        hintOnUpdate: '(max size: 2 MB, jpg/jpeg/png/gif)',
        replacePrompt: 'Insert New Media?',
      },
    },
  },
  api: {
    list: 'Masterfilter/Chapters/fetchchapters.php',
    listField: 'chapters',
    get: 'Masterfilter/Chapters/getchapter.php',
    getField: 'chapter',
    add: 'Masterfilter/Chapters/addchapters.php',
    update: 'Masterfilter/Chapters/updatechapters.php',
    updateIdIn: 'query',
    remove: 'Masterfilter/Chapters/deletechapters.php',
    encoding: 'multipart',
  },
  routes: {
    list: '/chapters',
    add: '/addchapters',
    edit: '/updatechapter',
    menu: { group: 'MASTERFILTERS', order: 7, label: 'Chapters' },
  },
  list: {
    columns: [
      { field: 'chapter_title', header: 'Chapter Title' },
      parentColumns.book,
      {
        field: 'class_name',
        header: 'Class / Subject / Series',
        also: ['subject_name', 'series_name'],
        priority: 'medium',
      },
      // Opens Add Question carrying the chapter's levels, ids and names (spec §2).
      {
        kind: 'link',
        header: 'Add Question',
        label: 'Add Question',
        to: '/addquestion',
        search: {
          chapter_id: 'chapter_id',
          chapter_name: 'chapter_title',
          class_id: 'class_id',
          class_name: 'class_name',
          subject_id: 'subject_id',
          subject_name: 'subject_name',
          series_id: 'series_id',
          series_name: 'series_name',
          book_id: 'book_id',
          book_name: 'book_name',
        },
      },
    ],
    search: ['chapter_title'],
    sort: { field: 'chapter_id', dir: 'asc' },
    pageSize: 10,
  },
  form: [
    'class_id',
    'subject_id',
    'series_id',
    'book_id',
    'section_id',
    'unit_id',
    'chapter_title',
    'chapter_description',
    'chapter_image',
  ],
  updateForm: [
    'series_id',
    'class_id',
    'subject_id',
    'book_id',
    'section_id',
    'unit_id',
    'chapter_title',
    'chapter_description',
    'chapter_image',
  ],
  cascadeIn: ['add'],
  requiredMessage: 'Please fill in all required fields',
  filters: [{ param: 'book_id' }],
  lookups: [
    {
      path: 'Masterfilter/Book/fetchchapterforbook.php',
      params: ['class_id', 'subject_id', 'series_id', 'book_id'],
    },
    { path: 'Resources/fetchchapters.php', params: ['book_id'] },
  ],
});
