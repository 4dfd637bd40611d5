import { defineEntity, type FieldSpec } from '../entity';
import { bookLevels } from './refs';

/** Question types (spec §4), in the order the form offers them. */
export const QUESTION_TYPES = [
  { value: 'mcq', label: 'MCQ' },
  { value: 'trueFalse', label: 'True or False' },
  { value: 'short', label: 'Short Answer' },
  { value: 'long', label: 'Long Answer' },
  { value: 'match', label: 'Match the Following' },
] as const;

const option = (n: number): FieldSpec => ({
  kind: 'text',
  label: `Option ${n}`,
  wire: `mcqOption${n}`,
  maxLength: 1000,
});
const OPTIONS = ['mcq_option_1', 'mcq_option_2', 'mcq_option_3', 'mcq_option_4'] as const;
const MATCH = ['left_match', 'right_match'] as const;
/** How a match's items are entered: the list shows them as entered, a line each. */
const ONE_A_LINE = 'One item per line.';

/**
 * Question (spec §3), api-contract §3.16: fetch and delete in `Resources/`, add in
 * `Resources/Library/`; `resourceTitle` and `resourceType` carry the question text and type.
 * Rows carry `id`, the key (delete and the edit link use it), and `question_id`, the original's
 * row key, here a code the server gives ('Q00001'). An MCQ shows and needs its four options,
 * a match its two texts; other types send them empty.
 *
 * Editing is our extension (the original linked /updatequestion but had no endpoint):
 * `Resources/getquestion.php?id=` answers `{question}` and `Resources/updatequestion.php` takes
 * the add's fields plus `id`. A server without them (the PHP API, ours in legacy mode) is told
 * apart by the app, whose edit screen then says it cannot edit questions and queues nothing.
 */
export const questionEntity = defineEntity({
  name: 'question',
  table: 'questions',
  key: 'id',
  title: 'question_title',
  names: { one: 'question', One: 'Question', many: 'questions', Many: 'Questions' },
  fields: {
    ...bookLevels,
    chapter_id: {
      kind: 'ref',
      ref: 'chapter',
      refName: 'chapter_name',
      label: 'Chapter',
      required: true,
      wire: 'selectedChapter',
      dependsOn: ['book_id'],
    },
    question_id: { kind: 'text', label: 'Question Code', serverSet: true },
    question_type: {
      kind: 'choice',
      label: 'Question Type',
      required: true,
      wire: 'resourceType',
      choices: QUESTION_TYPES,
    },
    question_title: {
      kind: 'text',
      label: 'Enter Question',
      required: true,
      wire: 'resourceTitle',
      multiline: true,
      maxLength: 10_000,
    },
    mcq_option_1: option(1),
    mcq_option_2: option(2),
    mcq_option_3: option(3),
    mcq_option_4: option(4),
    left_match: {
      kind: 'text',
      label: 'Left Side Match',
      wire: 'leftMatch',
      multiline: true,
      hint: ONE_A_LINE,
    },
    right_match: {
      kind: 'text',
      label: 'Right Side Match',
      wire: 'rightMatch',
      multiline: true,
      hint: ONE_A_LINE,
    },
    total_marks: {
      kind: 'number',
      label: 'Question Weightage (Total Marks)',
      wire: 'totalMarks',
      min: 0,
    },
    question_image: {
      kind: 'file',
      label: 'Question Image',
      wire: 'questionImage',
      hint: 'jpg, jpeg, png (max size: 2 MB)',
      file: { folder: 'question_image', types: ['jpg', 'jpeg', 'png'], maxBytes: 2 * 1024 * 1024 },
    },
    question_answer: {
      kind: 'text',
      label: 'Answer of the Question',
      wire: 'questionAnswer',
      multiline: true,
    },
  },
  api: {
    list: 'Resources/fetchquestion.php',
    listField: 'questions',
    get: 'Resources/getquestion.php',
    getField: 'question',
    add: 'Resources/Library/addquestion.php',
    update: 'Resources/updatequestion.php',
    updateIdIn: 'body',
    remove: 'Resources/deletequestion.php',
    encoding: 'multipart',
    extensions: ['get', 'update'],
  },
  routes: {
    list: '/question-bank',
    add: '/addquestion',
    edit: '/updatequestion',
    menu: { group: 'RESOURCES', order: 4, label: 'Question Bank' },
  },
  list: {
    columns: [
      { field: 'question_title', header: 'Question Title', small: [...OPTIONS, ...MATCH] },
      { field: 'question_type', header: 'Question Type' },
      {
        field: 'class_name',
        also: ['subject_name', 'series_name', 'book_name', 'chapter_name'],
        header: 'Class / Subject / Series / Book / Chapter',
        priority: 'medium',
      },
    ],
    search: ['question_title'],
    sort: { field: 'id', dir: 'asc' },
    pageSize: 10,
    actions: { header: 'Actions', items: ['edit', 'delete'] },
  },
  texts: {
    listTitle: 'Question Bank',
    addButton: '+ Add Question',
    sno: 'S.no.',
    searchPlaceholder: 'Search',
    addTitle: 'Add Question',
    addSubmit: 'Submit',
    editTitle: 'Update Question',
    showing: 'Showing {first} to {last} of {total} total entries',
  },
  form: [
    'class_id',
    'subject_id',
    'series_id',
    'book_id',
    'chapter_id',
    'question_type',
    'question_title',
    ...OPTIONS,
    ...MATCH,
    'total_marks',
    'question_image',
    'question_answer',
  ],
  cascadeIn: ['add', 'update'],
  switched: {
    field: 'question_type',
    inputs: { mcq: OPTIONS, match: MATCH },
    required: { mcq: OPTIONS, match: MATCH },
  },
});
