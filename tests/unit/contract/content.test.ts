/**
 * The content descriptions' rules that the form and the server share, and the local side of
 * book pages: which inputs each entry type shows (entry-type-inputs.ts), the question types'
 * options, several images saved as one page each with their numbers, and page-number edits
 * folding like toggles.
 */
import { describe, expect, it } from 'vitest';
import { bookPageEntity, libraryResourceEntity, questionEntity } from '../../../src/contract/entities';
import { ENTRY_TYPE_INPUTS } from '../../../src/contract/entities/entry-type-inputs';
import { ENTRY_TYPES } from '../../../src/contract/entities/resource-type';
import { formFields, wireFields } from '../../../src/contract/entity';
import { severalNumbers } from '../../../src/contract/several-files';
import { hiddenInputs, isShown } from '../../../src/contract/switched-inputs';
import { formProblems, validateWrite } from '../../../src/contract/validation';
import { wireRequest } from '../../../src/contract/wire-request';
import type { LocalDb } from '../../../src/db/database';
import { mutate } from '../../../src/db/mutate';
import { addSeveral } from '../../../src/db/mutations/add-several';
import { listRows } from '../../../src/db/queries';
import { freshLocalDbEach } from '../../helpers/local-db';

const form = formFields(libraryResourceEntity, 'add');
const shownFor = (code: string | null) => form.filter((f) => isShown(libraryResourceEntity, f, code));
/** The inputs every resource has, whatever its type. */
const ALWAYS = [
  'class_id',
  'subject_id',
  'series_id',
  'book_id',
  'chapter_id',
  'resource_title',
  'resource_type',
  'resource_category',
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
];

describe('the entry type decides a library resource’s inputs', () => {
  it.each([
    ['1', 'Link', ['resource_link']],
    ['2', 'File Upload', ['document_file', 'document_link']],
    ['3', 'Textarea & Link', ['notes_content', 'resource_link']],
    ['4', 'Iframe', ['iframe_link']],
    ['5', 'Textarea', ['notes_content']],
    ['6', 'Audio', ['audio_file', 'audio_link']],
  ])('code %s (%s) shows %j besides the common inputs', (code, name, own) => {
    expect(ENTRY_TYPES.find((t) => t.value === code)?.label).toBe(name);
    expect(shownFor(code).filter((f) => !ALWAYS.includes(f))).toEqual(own);
    expect(ALWAYS.every((f) => shownFor(code).includes(f))).toBe(true);
  });

  it('before a type is chosen, only the common inputs; every code is mapped and every mapped input is a form field', () => {
    expect(shownFor(null)).toEqual(form.filter((f) => ALWAYS.includes(f)));
    expect(Object.keys(ENTRY_TYPE_INPUTS).sort()).toEqual(ENTRY_TYPES.map((t) => t.value));
    for (const inputs of Object.values(ENTRY_TYPE_INPUTS))
      for (const input of inputs) expect(form).toContain(input);
  });

  it('inputs the chosen type hides are the ones the form sends empty', () => {
    expect(hiddenInputs(libraryResourceEntity, form, '4')).toEqual([
      'notes_content',
      'resource_link',
      'document_file',
      'document_link',
      'audio_file',
      'audio_link',
    ]);
  });

  it('the iframe and every link take web addresses only; audio is mp3 only', () => {
    const links = Object.entries(libraryResourceEntity.fields).filter(([f]) => f.endsWith('_link'));
    expect(links.every(([, spec]) => spec.kind === 'url')).toBe(true);
    expect(libraryResourceEntity.fields.audio_file.file?.types).toEqual(['mp3']);
    const problems = formProblems(
      libraryResourceEntity,
      'add',
      { resource_type: '4', iframe_link: 'javascript:alert(1)' },
      '4',
    );
    expect(problems.find((p) => p.field === 'iframe_link')?.message).toBe(
      'Iframe Link must be a web address starting with http:// or https://',
    );
  });
});

describe('a question’s type decides its options', () => {
  const base = {
    class_id: '1',
    subject_id: '1',
    series_id: '1',
    book_id: '1',
    chapter_id: '1',
    question_title: 'Q?',
  };
  it('an MCQ shows and needs four options, a match two texts, the others neither', () => {
    const fields = formFields(questionEntity, 'add');
    const options = ['mcq_option_1', 'mcq_option_2', 'mcq_option_3', 'mcq_option_4'];
    expect(fields.filter((f) => isShown(questionEntity, f, 'mcq'))).toEqual(expect.arrayContaining(options));
    expect(fields.filter((f) => isShown(questionEntity, f, 'short'))).not.toContain('mcq_option_1');
    expect(fields.filter((f) => isShown(questionEntity, f, 'match'))).toEqual(
      expect.arrayContaining(['left_match', 'right_match']),
    );
    const mcq = formProblems(questionEntity, 'add', { ...base, question_type: 'mcq', mcq_option_1: 'a' });
    expect(mcq.map((p) => p.field)).toEqual(['mcq_option_2', 'mcq_option_3', 'mcq_option_4']);
    expect(formProblems(questionEntity, 'add', { ...base, question_type: 'long' })).toEqual([]);
    const request = wireRequest(questionEntity, { op: 'add', values: { ...base, question_type: 'match' } });
    expect(validateWrite(questionEntity, 'add', request.body!)).toEqual({
      ok: false,
      message: 'Left Side Match is required',
    });
  });

  it('sends the spec’s wire names: resourceTitle and resourceType for the text and type', () => {
    const names = wireFields(questionEntity, 'add').map(([, s]) => s.wire);
    expect(names).toEqual(
      expect.arrayContaining(['resourceTitle', 'resourceType', 'mcqOption1', 'leftMatch', 'questionImage']),
    );
    expect(wireRequest(questionEntity, { op: 'remove', id: '7' }).body).toEqual({ id: '7' });
  });
});

describe('several images, one page each', () => {
  let db: LocalDb;
  freshLocalDbEach('content', (opened) => {
    db = opened;
  });

  /** Told apart by size: fake-indexeddb keeps a File as a plain Blob, without its name. */
  const image = (name: string) => new File([new Uint8Array(name.charCodeAt(0))], name, { type: 'image/png' });
  const values = { book_id: '1', chapter_id: '2', page_title: 'Scan', page_number: '' };

  it('numbers from the number given, or after the book’s highest page on this device, from 1 on an empty book', () => {
    expect(severalNumbers(3, 10, 99)).toEqual([10, 11, 12]);
    expect(severalNumbers(2, null, 7)).toEqual([8, 9]);
    expect(severalNumbers(1, null, null)).toEqual([1]);
  });

  it('saves one record and one add per image in one transaction, numbered in the order chosen', async () => {
    await db.rows(bookPageEntity).bulkPut([
      { page_id: '1', book_id: '1', page_number: 4 },
      { page_id: '2', book_id: '2', page_number: 50 },
    ]);
    const saved = await addSeveral(db, bookPageEntity, values, [
      image('a.png'),
      image('b.png'),
      image('c.png'),
    ]);
    expect(saved).toHaveLength(3);
    const rows = await listRows(db, bookPageEntity, { where: { book_id: '1' } });
    expect(rows.rows.map((r) => [r.page_number, (r.image_path as Blob | undefined)?.size])).toEqual([
      [4, undefined],
      [5, 'a'.charCodeAt(0)],
      [6, 'b'.charCodeAt(0)],
      [7, 'c'.charCodeAt(0)],
    ]);
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => [e.op, e.payload.page_number])).toEqual([
      ['add', 5],
      ['add', 6],
      ['add', 7],
    ]);
    // Each travels as its own add, the image as file-0 (the spec's newer client).
    const request = wireRequest(bookPageEntity, { op: 'add', values: entries[0].payload as never });
    expect(request.body?.['file-0']).toBeInstanceOf(Blob);
    expect(request.body).toMatchObject({ pageTitle: 'Scan', chapterName: '2', pageNumber: 5, book_id: '1' });

    const given = await addSeveral(db, bookPageEntity, { ...values, page_number: '20' }, [image('d.png')]);
    expect((await db.rows(bookPageEntity).get(given[0].key))?.page_number).toBe(20);
  });

  it('a page-number edit folds into the unsent add, and edits of a sent page fold into one', async () => {
    const [{ key }] = await addSeveral(db, bookPageEntity, values, [image('a.png')]);
    await mutate(db, { op: 'set', entity: bookPageEntity, key, action: 'pageNumber', value: 9 });
    expect((await db.outbox.toArray()).map((e) => [e.op, e.payload.page_number])).toEqual([['add', 9]]);

    await db.rows(bookPageEntity).put({ page_id: '30', book_id: '1', page_number: 3 });
    await mutate(db, { op: 'set', entity: bookPageEntity, key: '30', action: 'pageNumber', value: 4 });
    await mutate(db, { op: 'set', entity: bookPageEntity, key: '30', action: 'pageNumber', value: 8 });
    const sets = (await db.outbox.toArray()).filter((e) => e.op === 'set');
    expect(sets.map((e) => e.payload.page_number)).toEqual([8]);
    expect(
      wireRequest(bookPageEntity, { op: 'action', action: 'pageNumber', id: '30', value: 8 }).body,
    ).toEqual({
      page_id: '30',
      new_page_number: 8,
    });
    // Back to the number the server has: nothing left to send.
    await mutate(db, { op: 'set', entity: bookPageEntity, key: '30', action: 'pageNumber', value: '3' });
    expect((await db.outbox.toArray()).filter((e) => e.op === 'set')).toEqual([]);
  });
});
