/**
 * The original front-end as a client, with its exact requests.
 * It loads a record with the get endpoint, keeps each value in its form state and puts it into
 * FormData as it is, so a null it loaded travels as the text "null"; Update Chapter sends the
 * id only in the query string (api-contract §3.8). The server reads "null" in a multipart
 * field as empty and stores optional text as '' (never null), so an unchanged save from the
 * original changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity, chapterEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const C = chapterEntity.api;
const B = bookEntity.api;

/** FormData as the original builds it: `formData.append(name, value)` with the loaded value. */
function originalForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  // String(null) === 'null': what the browser sends for a null appended to FormData.
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  return form;
}

/** The stored row, without the change counter (an update always advances it). */
async function row(table: string, key: string, id: number) {
  const [found] = await suite.server.query<Record<string, unknown>>(
    `SELECT * FROM ${table} WHERE ${key} = $1`,
    [id],
  );
  return withoutRev(found);
}

const withoutRev = ({ rev: _rev, ...rest }: Record<string, unknown>) => rest;

/** Update Chapter's request from the chapter getchapter.php returned. */
const updateChapterForm = (c: Record<string, unknown>) =>
  originalForm({
    selectedSeries: c.series_id,
    selectedClass: c.class_id,
    selectedSubject: c.subject_id,
    selectedBook: c.book_id,
    selectedSection: c.section_id,
    selectedUnit: c.unit_id,
    chapterName: c.chapter_title,
    chapterDescription: c.chapter_description,
  });

/** The demo chapters without a section (6: under a unit directly under its book; 7: neither). */
async function demoChapter(title: string) {
  const [found] = await suite.server.query<{ chapter_id: number }>(
    'SELECT chapter_id FROM chapters WHERE chapter_title = $1',
    [title],
  );
  return found.chapter_id;
}

describe('Update Chapter of a chapter without section or unit', () => {
  it.each([
    ['Shapes All Around', { section_id: null, unit_id: null }],
    ['Parts of a Plant', { section_id: null, unit_id: expect.any(Number) }],
  ])(
    '%s: the exact request with selectedSection=null succeeds and keeps the refs NULL',
    async (title, refs) => {
      const id = await demoChapter(title);
      const { body: got } = await suite.client.get(C.get, { chapter_id: id });
      expect(got.chapter).toMatchObject(refs);
      const before = await row('chapters', 'chapter_id', id);

      const form = updateChapterForm(got.chapter);
      expect(form.get('selectedSection')).toBe('null');
      if (got.chapter.unit_id === null) expect(form.get('selectedUnit')).toBe('null');
      // Without a new image the original sends no chapterImage; the id is only in the query string.
      expect(form.has('chapterImage')).toBe(false);
      expect(form.has('chapter_id')).toBe(false);
      const reply = await suite.client.post(`${C.update}?chapter_id=${id}`, form);
      expect(reply).toMatchObject({
        status: 200,
        body: { success: true, message: 'Chapter updated successfully' },
      });

      const after = await row('chapters', 'chapter_id', id);
      expect(after).toMatchObject(refs);
      expect(after.section_id).toBeNull();
      expect(after).toEqual(before);
    },
  );

  it('a changed name with the "null" refs is saved, the refs still NULL', async () => {
    const id = await demoChapter('Shapes All Around');
    const { body: got } = await suite.client.get(C.get, { chapter_id: id });
    const reply = await suite.client.post(
      `${C.update}?chapter_id=${id}`,
      updateChapterForm({ ...got.chapter, chapter_title: 'Shapes Everywhere' }),
    );
    expect(reply.status).toBe(200);
    expect(await row('chapters', 'chapter_id', id)).toMatchObject({
      chapter_title: 'Shapes Everywhere',
      section_id: null,
      unit_id: null,
    });
  });
});

describe('Update Book and the text "null"', () => {
  /** Add Book as the original sends it, optional text left empty. */
  async function addBook(name: string): Promise<number> {
    const reply = await suite.client.post(
      B.add,
      originalForm({
        selectedClass: 1,
        selectedSubject: 1,
        selectedSeries: 1,
        bookName: name,
        bookCode: `${name}-code`,
        activityFolderName: '',
        fileToAccess: '',
        bookDownloadLink: '',
        androidDownloadLink: '',
        bookDescription: '',
      }),
    );
    expect(reply.status).toBe(200);
    return reply.body.id;
  }

  /** Update Book's request from the book getBook.php returned (no cover: none was chosen). */
  const updateBookForm = (b: Record<string, unknown>) =>
    originalForm({
      book_id: b.book_id,
      bookName: b.book_name,
      bookCode: b.book_code,
      bookDownloadLink: b.book_download_link,
      androidDownloadLink: b.android_download_link,
      bookDescription: b.book_description,
      selectedSeries: b.series_id,
      selectedClass: b.class_id,
      selectedSubject: b.subject_id,
    });

  it('empty optional text is stored and returned as "", never null', async () => {
    const id = await addBook('Plain book');
    const { body } = await suite.client.get(B.get, { book_id: id });
    expect(body.book).toMatchObject({
      book_download_link: '',
      android_download_link: '',
      book_description: '',
    });
    expect(await row('books', 'book_id', id)).toMatchObject({
      activity_folder_name: '',
      file_to_access: '',
      book_download_link: '',
      android_download_link: '',
      book_description: '',
      book_cover: null,
    });
  });

  it('the text "null" in optional text fields is stored as ""', async () => {
    const id = await addBook('Null book');
    const { body } = await suite.client.get(B.get, { book_id: id });
    // What the original sent back when the server still returned null for empty text.
    const reply = await suite.client.post(
      B.update,
      updateBookForm({
        ...body.book,
        book_download_link: null,
        android_download_link: null,
        book_description: null,
      }),
    );
    expect(reply).toMatchObject({ status: 200, body: { success: true } });
    const stored = await row('books', 'book_id', id);
    expect(stored).toMatchObject({ book_download_link: '', android_download_link: '', book_description: '' });
    const { body: again } = await suite.client.get(B.get, { book_id: id });
    expect(again.book.book_description).toBe('');
  });

  it('an unchanged save from the original changes nothing, and the delta pull shows the same values', async () => {
    const id = await addBook('Unchanged book');
    const cursor = (await suite.client.get(B.list, { since: 0 })).body.cursor;
    const { body } = await suite.client.get(B.get, { book_id: id });
    const before = await row('books', 'book_id', id);

    for (let save = 0; save < 2; save++) {
      const reply = await suite.client.post(B.update, updateBookForm(body.book));
      expect(reply.status).toBe(200);
      expect(await row('books', 'book_id', id)).toEqual(before);
    }
    const { body: after } = await suite.client.get(B.get, { book_id: id });
    expect(withoutRev(after.book)).toEqual(withoutRev(body.book));

    const delta = await suite.client.get(B.list, { since: cursor });
    const listed = (delta.body.books as Record<string, unknown>[]).filter((b) => b.book_id === id);
    expect(listed.length).toBeLessThanOrEqual(1);
    for (const b of listed) expect(b).toMatchObject(withoutRev(body.book));
    expect(delta.body.deleted).toEqual([]);
  });

  it('a required text field sent as "null" is refused, not stored as empty', async () => {
    const id = await addBook('Required book');
    const { body } = await suite.client.get(B.get, { book_id: id });
    const reply = await suite.client.post(B.update, updateBookForm({ ...body.book, book_name: null }));
    expect(reply).toMatchObject({ status: 400, body: { success: false, message: 'Book Name is required' } });
    expect((await row('books', 'book_id', id)).book_name).toBe('Required book');
  });
});
