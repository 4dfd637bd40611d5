/**
 * Writes of the JSON master-data entities (subjects, series, sections, units) on the seeded
 * tree: parents must exist, optional refs may be empty, updates keep what the body leaves
 * out, a parent with children cannot be deleted, and a rename re-sends the children in a
 * delta pull. Every refusal is a 4xx with success false that writes nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  bookEntity,
  classEntity,
  sectionEntity,
  seriesEntity,
  subjectEntity,
  unitEntity,
} from '../../../src/contract/entities';
import { stillUsedBy } from '../../../src/contract/messages';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });

type Row = Record<string, unknown>;
const S = subjectEntity.api;
const R = seriesEntity.api;
const SEC = sectionEntity.api;
const U = unitEntity.api;
const unit = {
  selectedClass: 1,
  selectedSubject: 1,
  selectedSeries: 1,
  selectedBook: 1,
  unitTitle: 'New unit',
};

/** Every table's bare list: a refusal must leave all of them as they were. */
async function snapshot(): Promise<Row[][]> {
  const out: Row[][] = [];
  for (const e of [classEntity, subjectEntity, seriesEntity, bookEntity, sectionEntity, unitEntity])
    out.push((await suite.client.get(e.api.list)).body[e.api.listField]);
  return out;
}

describe('add, update, delete', () => {
  it('subjects: rich text content, update and delete', async () => {
    const added = await suite.client.post(S.add, {
      subjectName: 'Art',
      subjectContent: '<p>Colours &amp; <b>shapes</b></p>',
    });
    expect(added).toMatchObject({
      status: 200,
      body: { success: true, message: 'Subject added successfully' },
    });
    const id = added.body.subject_id;
    const updated = await suite.client.post(S.update, {
      subject_id: id,
      subjectName: 'Fine Art',
      subjectContent: '<p>More</p>',
    });
    expect(updated.body).toMatchObject({ success: true, message: 'Subject updated successfully' });
    expect((await suite.client.get(S.get, { subject_id: id })).body.subject).toMatchObject({
      subject_name: 'Fine Art',
      subject_content: '<p>More</p>',
    });
    expect((await suite.client.post(S.remove, { subject_id: id })).body).toMatchObject({
      success: true,
      message: 'Subject deleted successfully',
    });
  });

  it('series: parents by id (numbers or digits), names joined on read', async () => {
    const added = await suite.client.post(R.add, {
      seriesName: 'Word Wise',
      selectedClass: '2',
      selectedSubject: 1,
    });
    expect(added.body).toMatchObject({ success: true, message: 'Series added successfully' });
    const got = await suite.client.get(R.get, { series_id: added.body.id });
    expect(got.body.series).toMatchObject({
      class_id: 2,
      subject_id: 1,
      class_name: 'Class 2',
      subject_name: 'English',
    });
    await suite.client.post(R.update, {
      series_id: added.body.id,
      seriesName: 'Word Wise',
      selectedClass: 3,
      selectedSubject: 2,
    });
    expect((await suite.client.get(R.get, { series_id: added.body.id })).body.series).toMatchObject({
      class_name: 'Class 3',
      subject_name: 'Mathematics',
    });
  });

  it('sections: the id of an update travels in the query string only', async () => {
    const body = {
      selectedClass: 1,
      selectedSubject: 1,
      selectedSeries: 1,
      selectedBook: 2,
      sectionName: 'Extra',
    };
    const { body: added } = await suite.client.post(SEC.add, body);
    const updated = await suite.client.post(`${SEC.update}?section_id=${added.id}`, {
      ...body,
      sectionName: 'Extra 2',
    });
    expect(updated.body).toMatchObject({ success: true, message: 'Section updated successfully' });
    expect((await suite.client.get(SEC.get, { section_id: added.id })).body.section).toMatchObject({
      section_name: 'Extra 2',
      book_name: 'Sunrise English Workbook 1',
    });
    // The id in the body is not where this endpoint looks.
    expect(await suite.client.post(SEC.update, { ...body, section_id: added.id })).toMatchObject({
      status: 400,
    });
  });

  it("units: an optional section sent as '' is NULL; update can set and clear it", async () => {
    const { body: added } = await suite.client.post(U.add, { ...unit, selectedSection: '' });
    expect((await suite.client.get(U.get, { unit_id: added.id })).body.unit).toMatchObject({
      section_id: null,
      section_name: null,
    });
    await suite.client.post(`${U.update}?unit_id=${added.id}`, { ...unit, selectedSection: 2 });
    expect((await suite.client.get(U.get, { unit_id: added.id })).body.unit).toMatchObject({
      section_id: 2,
      section_name: 'Part B: Poems',
    });
    // Left out of the body: kept. Sent empty: cleared. (Required fields are always sent: validateWrite.)
    await suite.client.post(`${U.update}?unit_id=${added.id}`, { ...unit, unitTitle: 'Renamed unit' });
    expect((await suite.client.get(U.get, { unit_id: added.id })).body.unit).toMatchObject({
      unit_title: 'Renamed unit',
      section_id: 2,
      book_id: 1,
    });
    await suite.client.post(`${U.update}?unit_id=${added.id}`, { ...unit, selectedSection: '' });
    expect((await suite.client.get(U.get, { unit_id: added.id })).body.unit.section_id).toBeNull();
  });

  it('a rename re-sends the rows that show the name in a delta pull', async () => {
    const cursor = (await suite.client.get(R.list, { since: 0 })).body.cursor;
    const bookCursor = (await suite.client.get(bookEntity.api.list, { since: 0 })).body.cursor;
    await suite.client.post(S.update, {
      subject_id: 3,
      subjectName: 'General Science',
      subjectContent: '<p>x</p>',
    });
    const series = (await suite.client.get(R.list, { since: cursor })).body.series;
    expect(series).toMatchObject([{ series_id: 5, subject_name: 'General Science' }]);
    const books = (await suite.client.get(bookEntity.api.list, { since: bookCursor })).body.books;
    expect(books).toMatchObject([{ book_id: 6, subject_name: 'General Science' }]);
    // Saving the same name again re-sends nothing.
    const quiet = (await suite.client.get(R.list, { since: 0 })).body.cursor;
    await suite.client.post(S.update, {
      subject_id: 3,
      subjectName: 'General Science',
      subjectContent: '<p>y</p>',
    });
    expect((await suite.client.get(R.list, { since: quiet })).body.series).toEqual([]);
  });
});

describe('deleting a parent that children still name', () => {
  const cases: [string, string, Row, string][] = [
    [
      'a class with series',
      classEntity.api.remove,
      { class_id: 1 },
      stillUsedBy(classEntity.names, seriesEntity.names),
    ],
    [
      'a subject with series',
      S.remove,
      { subject_id: 1 },
      stillUsedBy(subjectEntity.names, seriesEntity.names),
    ],
    ['a series with books', R.remove, { series_id: 1 }, stillUsedBy(seriesEntity.names, bookEntity.names)],
    [
      'a section with units',
      SEC.remove,
      { section_id: 1 },
      stillUsedBy(sectionEntity.names, unitEntity.names),
    ],
  ];
  it.each(cases)('refuses %s with 409 and deletes nothing', async (_name, path, body, message) => {
    const before = await snapshot();
    const reply = await suite.client.post(path, body);
    expect(reply).toMatchObject({ status: 409, body: { success: false, message } });
    expect(await snapshot()).toEqual(before);
  });

  it('the message names the children', () => {
    expect(stillUsedBy(classEntity.names, seriesEntity.names)).toBe(
      'This class cannot be deleted: series still belong to it. Delete them first.',
    );
  });

  it('stores the 409 for a replay with the same Idempotency-Key', async () => {
    const key = { 'Idempotency-Key': 'delete-parent-1' };
    const first = await suite.client.post(R.remove, { series_id: 2 }, key);
    const again = await suite.client.post(R.remove, { series_id: 2 }, key);
    expect(first.status).toBe(409);
    expect(again).toMatchObject({ status: 409, body: first.body });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('bad inputs get a 4xx with success false and write nothing', () => {
  let before: Row[][];
  beforeEach(async () => {
    before = await snapshot();
  });

  const series = { seriesName: 'Ghost series', selectedClass: 1, selectedSubject: 1 };
  const section = {
    selectedClass: 1,
    selectedSubject: 1,
    selectedSeries: 1,
    selectedBook: 1,
    sectionName: 'Ghost',
  };
  const cases: [string, string, unknown, number, string][] = [
    ['series with an unknown class', R.add, { ...series, selectedClass: 999 }, 400, 'Class does not exist'],
    [
      'series with an unknown subject',
      R.add,
      { ...series, selectedSubject: 999 },
      400,
      'Subject does not exist',
    ],
    [
      'series with a huge class id',
      R.add,
      { ...series, selectedClass: '99999999999' },
      400,
      'Class does not exist',
    ],
    ['series without a class', R.add, { ...series, selectedClass: '' }, 400, 'Class is required'],
    [
      'series with a class name for an id',
      R.add,
      { ...series, selectedClass: 'Class 1' },
      400,
      'Class must be an id',
    ],
    [
      'series with the name as a number',
      R.add,
      { ...series, seriesName: 7 },
      400,
      'Series Name must be text',
    ],
    ['section with an unknown book', SEC.add, { ...section, selectedBook: 999 }, 400, 'Book does not exist'],
    ['unit with an unknown section', U.add, { ...unit, selectedSection: 999 }, 400, 'Section does not exist'],
    // An optional field sent as an empty list is malformed, not empty (found by the fuzz).
    [
      'unit with a list for its section',
      U.add,
      { ...unit, selectedSection: [] },
      400,
      'Section must be an id',
    ],
    [
      'subject without content',
      S.add,
      { subjectName: 'No content', subjectContent: '' },
      400,
      'Subject Content is required',
    ],
    [
      'update of a series to an unknown class',
      R.update,
      { series_id: 1, ...series, selectedClass: 999 },
      400,
      'Class does not exist',
    ],
    ['update of an unknown series', R.update, { series_id: 999, ...series }, 404, 'Series not found'],
    ['update of a section without its id', SEC.update, section, 400, 'Invalid section_id'],
    ['update of an unknown unit', `${U.update}?unit_id=999`, unit, 404, 'Unit not found'],
    ['delete of an unknown subject', S.remove, { subject_id: 999 }, 404, 'Subject not found'],
    ['delete with a malformed id', U.remove, { unit_id: 'one' }, 400, 'Invalid unit_id'],
  ];
  it.each(cases)('%s', async (_name, path, body, status, message) => {
    const reply = await suite.client.post(path, body);
    expect(reply).toMatchObject({ status, body: { success: false, message } });
    expect(await snapshot()).toEqual(before);
  });
});
