/**
 * Reads of the master data on the seeded demo tree (server/seed/demo.ts): parents' names in list,
 * get and delta rows, the list filters, the cascade lookups, and the Units sort parameters.
 */
import { describe, expect, it } from 'vitest';
import {
  bookEntity,
  chapterEntity,
  sectionEntity,
  seriesEntity,
  subjectEntity,
  unitEntity,
} from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });

type Row = Record<string, unknown>;
const pick = (rows: Row[], field: string) => rows.map((r) => r[field]);
const lookupPath = (entity: { lookups?: readonly { path: string }[] }, name: string) =>
  entity.lookups!.find((l) => l.path.endsWith(name))!.path;

describe("parents' names", () => {
  it('series rows carry class_name and subject_name in list and get', async () => {
    const { body } = await suite.client.get(seriesEntity.api.list, {
      search: '',
      page: 1,
      limit: 10,
      sortOption: '',
    });
    expect(body.total).toBe(5);
    expect(body.series[0]).toMatchObject({
      series_id: 1,
      series_name: 'Sunrise English',
      class_id: 1,
      subject_id: 1,
      class_name: 'Class 1',
      subject_name: 'English',
    });
    const got = await suite.client.get(seriesEntity.api.get, { series_id: 5 });
    expect(got.body.series).toMatchObject({
      series_name: 'Curious Minds',
      class_name: 'Class 3',
      subject_name: 'Science',
    });
  });

  it('chapter rows carry every ancestor name, NULL for a missing section and unit', async () => {
    const { body } = await suite.client.get(chapterEntity.api.list);
    expect(body.chapters[0]).toMatchObject({
      chapter_title: 'Good Morning',
      class_name: 'Class 1',
      subject_name: 'English',
      series_name: 'Sunrise English',
      book_name: 'Sunrise English Reader 1',
      section_name: 'Part A: Stories',
      unit_title: 'Unit 1: Hello!',
    });
    const shapes = body.chapters.find((c: Row) => c.chapter_title === 'Shapes All Around');
    expect(shapes).toMatchObject({
      book_name: 'Number Fun 2',
      section_id: null,
      section_name: null,
      unit_title: null,
    });
  });

  it('books, sections and units carry theirs, and delta rows too', async () => {
    const book = (await suite.client.get(bookEntity.api.get, { book_id: 1 })).body.book;
    expect(book).toMatchObject({ series_name: 'Sunrise English', class_name: 'Class 1', status: 'Enabled' });
    const section = (await suite.client.get(sectionEntity.api.get, { section_id: 3 })).body.section;
    expect(section).toMatchObject({ book_name: 'Number Fun 1', subject_name: 'Mathematics' });
    const delta = await suite.client.get(unitEntity.api.list, { since: 0 });
    expect(delta.body.units).toHaveLength(5);
    expect(delta.body.units.find((u: Row) => u.unit_id === 4)).toMatchObject({
      section_name: 'Numbers up to 100',
      book_name: 'Number Fun 1',
      class_name: 'Class 1',
    });
  });
});

describe('list filters', () => {
  it('subjects by class, through the series that link them', async () => {
    const of = async (class_id: number) =>
      pick((await suite.client.get(subjectEntity.api.list, { class_id })).body.subjects, 'subject_name');
    expect(await of(1)).toEqual(['English', 'Mathematics']);
    expect(await of(3)).toEqual(['Science']);
    expect(await of(12)).toEqual([]);
  });

  it('series by subject, books by series, sections and chapters by book', async () => {
    const ids = async (path: string, field: string, key: string, query: Record<string, number>) =>
      pick((await suite.client.get(path, query)).body[field], key);
    expect(await ids(seriesEntity.api.list, 'series', 'series_id', { subject_id: 2 })).toEqual([3, 4]);
    expect(await ids(bookEntity.api.list, 'books', 'book_id', { series_id: 1 })).toEqual([1, 2]);
    expect(await ids(sectionEntity.api.list, 'sections', 'section_id', { book_id: 1 })).toEqual([1, 2]);
    expect(await ids(chapterEntity.api.list, 'chapters', 'chapter_id', { book_id: 1 })).toEqual([1, 2, 3, 4]);
  });

  it('combine with search and paging; total counts the filtered rows', async () => {
    const page2 = await suite.client.get(chapterEntity.api.list, {
      book_id: 1,
      page: 2,
      limit: 3,
      search: '',
    });
    expect(page2.body.total).toBe(4);
    expect(pick(page2.body.chapters, 'chapter_title')).toEqual(['Twinkle, Twinkle']);
    const searched = await suite.client.get(chapterEntity.api.list, {
      book_id: 1,
      search: 'good',
      page: 1,
      limit: 10,
    });
    expect(searched.body).toMatchObject({ total: 1, chapters: [{ chapter_title: 'Good Morning' }] });
  });

  it('an empty filter is no filter; a malformed one is a 400', async () => {
    expect((await suite.client.get(seriesEntity.api.list, { subject_id: '' })).body.total).toBe(5);
    for (const bad of ['abc', '-1', '1.5']) {
      expect(await suite.client.get(seriesEntity.api.list, { subject_id: bad })).toMatchObject({
        status: 400,
        body: { success: false, message: 'Invalid subject_id' },
      });
    }
    // Well formed but beyond any key: simply nothing.
    expect((await suite.client.get(bookEntity.api.list, { series_id: '999999999999' })).body).toMatchObject({
      books: [],
      total: 0,
    });
  });
});

describe('lookups', () => {
  it('fetchseriesforbooks, fetchbookforsection and fetchsectionforunit', async () => {
    const series = await suite.client.get(lookupPath(seriesEntity, 'fetchseriesforbooks.php'), {
      class_id: 2,
      subject_id: 2,
    });
    expect(series).toMatchObject({
      status: 200,
      body: { success: true, series: [{ series_id: 4, series_name: 'Number Fun' }] },
    });
    const books = await suite.client.get(lookupPath(bookEntity, 'fetchbookforsection.php'), {
      class_id: 1,
      subject_id: 1,
      series_id: 1,
    });
    expect(pick(books.body.books, 'book_name')).toEqual([
      'Sunrise English Reader 1',
      'Sunrise English Workbook 1',
    ]);
    const sections = await suite.client.get(lookupPath(sectionEntity, 'fetchsectionforunit.php'), {
      class_id: 1,
      subject_id: 1,
      series_id: 1,
      book_id: 1,
    });
    expect(pick(sections.body.sections, 'section_name')).toEqual(['Part A: Stories', 'Part B: Poems']);
  });

  it('fetchunitforchapter: section_id given, or sent empty for units without a section', async () => {
    const path = lookupPath(unitEntity, 'fetchunitforchapter.php');
    const inSection = await suite.client.get(path, {
      class_id: 1,
      subject_id: 1,
      series_id: 1,
      book_id: 1,
      section_id: 1,
    });
    expect(pick(inSection.body.units, 'unit_title')).toEqual(['Unit 1: Hello!', 'Unit 2: My Family']);
    const noSection = await suite.client.get(path, {
      class_id: 3,
      subject_id: 3,
      series_id: 5,
      book_id: 6,
      section_id: '',
    });
    expect(noSection.body.units).toMatchObject([
      { unit_id: 5, unit_title: 'Plants Around Us', section_id: null },
    ]);
  });

  it('fetchchapterforbook and Resources/fetchchapters', async () => {
    const byBook = await suite.client.get(lookupPath(chapterEntity, 'fetchchapterforbook.php'), {
      class_id: 1,
      subject_id: 1,
      series_id: 1,
      book_id: 1,
    });
    expect(pick(byBook.body.chapters, 'chapter_id')).toEqual([1, 2, 3, 4]);
    const resources = await suite.client.get(lookupPath(chapterEntity, 'Resources/fetchchapters.php'), {
      book_id: 6,
    });
    expect(resources.body).toEqual({
      success: true,
      chapters: [expect.objectContaining({ chapter_title: 'Parts of a Plant' })],
    });
    // Ids that match nothing: an empty list, not an error.
    expect(
      (await suite.client.get(lookupPath(chapterEntity, 'Resources/fetchchapters.php'), { book_id: 4242 }))
        .body,
    ).toEqual({
      success: true,
      chapters: [],
    });
  });

  it('refuses a missing parameter, a malformed id, and an empty required id', async () => {
    const path = lookupPath(seriesEntity, 'fetchseriesforbooks.php');
    const cases: [Record<string, string | number>, string][] = [
      [{ class_id: 1 }, 'subject_id is required'],
      [{ class_id: 'x', subject_id: 1 }, 'Invalid class_id'],
      [{ class_id: '', subject_id: 1 }, 'Invalid class_id'],
    ];
    for (const [query, message] of cases) {
      expect(await suite.client.get(path, query)).toMatchObject({
        status: 400,
        body: { success: false, message },
      });
    }
  });
});

describe('units sorting (sortColumn, sortOrder)', () => {
  const order = async (query: Record<string, string | number>) =>
    pick(
      (await suite.client.get(unitEntity.api.list, { search: '', page: 1, limit: 10, ...query })).body.units,
      'unit_id',
    );

  it('sno is the row order, asc by default and desc on request', async () => {
    expect(await order({ sortColumn: '', sortOrder: 'asc' })).toEqual([1, 2, 3, 4, 5]);
    expect(await order({ sortColumn: 'sno', sortOrder: 'desc' })).toEqual([5, 4, 3, 2, 1]);
  });

  it("sorts by a shown column, parents' names included", async () => {
    expect(await order({ sortColumn: 'unit_title', sortOrder: 'asc' })).toEqual([4, 5, 1, 2, 3]);
    // PostgreSQL puts NULL first when descending; equal names fall back to the key.
    expect(await order({ sortColumn: 'section_name', sortOrder: 'desc' })).toEqual([5, 3, 2, 1, 4]);
    expect(await order({ sortColumn: 'class_name', sortOrder: 'desc', limit: 2 })).toEqual([5, 4]);
  });

  it('falls back to the key and asc for unknown values', async () => {
    expect(await order({ sortColumn: 'rev; DROP TABLE units', sortOrder: 'sideways' })).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(await order({ sortColumn: 'book_cover', sortOrder: 'DESC' })).toEqual([5, 4, 3, 2, 1]);
  });
});
