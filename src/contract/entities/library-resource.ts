import { defineEntity, type FieldSpec, type FileRule } from '../entity';
import { ENTRY_TYPE_INPUTS } from './entry-type-inputs';
import { bookLevels } from './refs';
import { V5_RESOURCE_TYPE_CODES } from './resource-type';

const MB = 1024 * 1024;

/**
 * Upload limits for teaching material. Files over a few MB travel to our server in resumable
 * chunks (src/sync/uploads/upload-files.ts), so a teaching video of hundreds of MB survives a bad
 * connection; the server checks every file by its content, not its name.
 */
const DOCUMENT_TYPES = ['pdf', 'docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods'] as const;
const DOCUMENT_HINT = 'pdf, docx, pptx, xlsx, odt, odp or ods (max size: 100 MB)';
const document = (folder: string): FileRule => ({ folder, types: DOCUMENT_TYPES, maxBytes: 100 * MB });

const file = (label: string, wire: string, rule: FileRule, hint: string): FieldSpec => ({
  kind: 'file',
  label,
  wire,
  file: rule,
  hint,
});
const link = (label: string, wire: string): FieldSpec => ({ kind: 'url', label, wire, maxLength: 2048 });

/**
 * Library resource (spec §3), api-contract §3.15 and the spec's newer endpoints (fetchResource.php,
 * updatelibrary.php). Tagged to a class, subject, series, book and optionally a chapter, which
 * cascade as spec §4 says; the resource type is one of the resource types, and its entry type
 * decides which inputs appear (entry-type-inputs.ts). Failures of add and update also carry
 * their message under `error`, which is what the original reads there. 'Resource added
 * successfully' answers both an add and an edit (spec §8).
 */
export const libraryResourceEntity = defineEntity({
  name: 'libraryResource',
  table: 'library_resources',
  key: 'resource_id',
  title: 'resource_title',
  names: { one: 'library resource', One: 'Library resource', many: 'library resources', Many: 'Library' },
  fields: {
    ...bookLevels,
    chapter_id: {
      kind: 'ref',
      ref: 'chapter',
      refName: 'chapter_name',
      label: 'Chapter',
      wire: 'selectedChapter',
      dependsOn: ['book_id'],
    },
    resource_title: {
      kind: 'text',
      label: 'Resource Title',
      required: true,
      wire: 'resourceTitle',
      maxLength: 255,
    },
    resource_type: {
      kind: 'ref',
      ref: 'resourceType',
      refName: 'resource_type_name',
      label: 'Resource Type',
      required: true,
      wire: 'resourceType',
      // The original sends a fixed code (`videos` ...) where our app sends an id.
      codes: V5_RESOURCE_TYPE_CODES,
    },
    resource_category: { kind: 'text', label: 'Category', wire: 'resourceCategory', maxLength: 255 },
    resource_link: link('Link', 'resourceLink'),
    document_file: file('Document', 'documentFile', document('documents'), DOCUMENT_HINT),
    video_file: file(
      'Video File',
      'videoFile',
      { folder: 'videos', types: ['mp4'], maxBytes: 500 * MB },
      'mp4 only (max size: 500 MB)',
    ),
    document_link: link('Document Link', 'documentLink'),
    video_link: link('Video Link', 'videoLink'),
    video_question: {
      kind: 'text',
      label: 'Question on the Video',
      wire: 'videoQuestion',
      multiline: true,
    },
    // An iframe is stored as a web address and never shown but in a sandboxed frame.
    iframe_link: link('Iframe Link', 'resourceIframe'),
    notes_content: { kind: 'text', label: 'Theory Notes', wire: 'theoryNotes', multiline: true },
    audio_file: file(
      'Audio File',
      'audioFile',
      { folder: 'audio', types: ['mp3'], maxBytes: 100 * MB },
      '.mp3 only (max size: 100 MB)',
    ),
    audio_link: link('Audio Link', 'audioLink'),
    interactivities_file: file(
      'Interactivities',
      'interactivitiesFile',
      { folder: 'interactivities', types: ['zip', 'pdf', 'mp4'], maxBytes: 500 * MB },
      'zip (HTML5 package), pdf or mp4 (max size: 500 MB)',
    ),
    interactivities_link: link('Interactivities Link', 'interactivitiesLink'),
    addnworksheets_file: file(
      'Additional Worksheets',
      'addnworksheetsFile',
      document('addnworksheets'),
      DOCUMENT_HINT,
    ),
    addnworksheets_link: link('Additional Worksheets Link', 'addnworksheetsLink'),
    addnactivities_file: file(
      'Additional Activities',
      'addnactivitiesFile',
      document('addnactivities'),
      DOCUMENT_HINT,
    ),
    addnactivities_link: link('Additional Activities Link', 'addnactivitiesLink'),
    answerkeys_file: file('Answer Keys', 'answerkeysFile', document('answerkeys'), DOCUMENT_HINT),
    answerkeys_link: link('Answer Keys Link', 'answerkeysLink'),
    lesson_plan_link: link('Lesson Plan Link', 'lessonPlanLink'),
    thumb_image: file(
      'Thumbnail',
      'thumbImage',
      { folder: 'thumbnails', types: ['jpg', 'jpeg', 'png'], maxBytes: 2 * MB },
      'jpg, jpeg, png (max size: 2 MB)',
    ),
  },
  api: {
    list: 'Resources/Library/fetchlibrary.php',
    listField: 'libraryResources',
    get: 'Resources/Library/fetchResource.php',
    getField: 'resource',
    add: 'Resources/Library/addlibrary.php',
    update: 'Resources/Library/updatelibrary.php',
    updateIdIn: 'body',
    remove: 'Resources/Library/deletelibrary.php',
    encoding: 'multipart',
    errorField: 'error',
  },
  routes: {
    list: '/library',
    add: '/addresources',
    edit: '/updateresource',
    menu: { group: 'RESOURCES', order: 2, label: 'Library' },
  },
  list: {
    columns: [
      { field: 'resource_title', header: 'Resource Title' },
      { field: 'resource_type_name', header: 'Resource Type' },
      { field: 'book_name', also: ['chapter_name'], separator: ', ', header: 'Added For' },
      { kind: 'fixed', header: 'Resource Tagged', text: 'Yes', priority: 'medium' },
    ],
    search: ['resource_title'],
    sort: { field: 'resource_id', dir: 'asc' },
    pageSize: 10,
    actions: { header: 'Actions', items: ['edit', 'delete'] },
  },
  texts: {
    addButton: '+ Add Resource',
    addTitle: 'Add Resource',
    addSubmit: 'Save Resource',
    editTitle: 'Update Resource',
    searchPlaceholder: 'Search by title',
  },
  notices: { added: 'Resource added successfully', updated: 'Resource added successfully' },
  form: [
    'class_id',
    'subject_id',
    'series_id',
    'book_id',
    'chapter_id',
    'resource_title',
    'resource_type',
    'resource_category',
    'notes_content',
    'resource_link',
    'document_file',
    'document_link',
    'iframe_link',
    'audio_file',
    'audio_link',
    'video_file',
    'video_link',
    'video_question',
    'interactivities_file',
    'interactivities_link',
    'addnworksheets_file',
    'addnworksheets_link',
    'addnactivities_file',
    'addnactivities_link',
    'answerkeys_file',
    'answerkeys_link',
    'lesson_plan_link',
    'thumb_image',
  ],
  cascadeIn: ['add', 'update'],
  switched: { field: 'resource_type', parentField: 'entry_type', inputs: ENTRY_TYPE_INPUTS },
});
