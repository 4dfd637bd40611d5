/**
 * Book pages (api-contract §3.13), every endpoint as the spec's client sends it: the list of one
 * book with `sort` (not sortOption), the book's details, its chapters, an add with one `image`
 * (V1-V5) or several `file-0..n` (one page each, numbered from the number given or after the
 * book's last page, in the order sent), the page's details, its update with the id in the body,
 * the page number through its own endpoint, and the delete. Images are checked by content and
 * size; a request with one bad image adds nothing.
 */
import { describe, expect, it } from 'vitest';
import { bookPageEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';
import { form, MB, sampleFile, storedFiles } from '../support/files';

const suite = signedInSuite({ seedDemo: true });
const A = bookPageEntity.api;
/** Seeded: book 1 (Sunrise English Reader 1) with chapters 1-4 and pages 1-3; book 4 has chapter 5. */
const BOOK = 1;
const OTHER_BOOK_CHAPTER = 5;

const page = (fields: Record<string, string | number | File> = {}) =>
  form({ pageTitle: 'Scan', chapterName: 2, pageNumber: '', book_id: BOOK, ...fields });
const png = (name = 'scan.png', size = 300) => sampleFile('png', name, size);
const pagesOf = async (book: number, query: Record<string, string | number> = {}) =>
  (
    await suite.client.get(A.list!, {
      search: '',
      page: 1,
      limit: 100,
      book_id: book,
      sort: 'page_number_asc',
      ...query,
    })
  ).body;
const stored = () => storedFiles(suite.server.storage, 'book_pages');

describe('Resources/fetchbookpages.php, fetchbookdetails.php, fetchchapters.php', () => {
  it('lists one book’s pages with their chapter and book names, by page number both ways', async () => {
    const asc = await pagesOf(BOOK);
    expect(asc.success).toBe(true);
    expect(asc.bookPages.length).toBeGreaterThanOrEqual(3);
    expect(asc.bookPages[0]).toMatchObject({
      page_title: 'Good Morning: opener',
      page_number: 1,
      chapter_name: 'Good Morning',
      book_name: 'Sunrise English Reader 1',
      image_path: expect.stringMatching(/\.png$/),
    });
    const desc = await pagesOf(BOOK, { sort: 'page_number_desc' });
    expect(desc.bookPages.map((p: { page_id: number }) => p.page_id)).toEqual(
      asc.bookPages.map((p: { page_id: number }) => p.page_id).reverse(),
    );
    expect((await pagesOf(2)).bookPages).toEqual([]);
    const searched = await pagesOf(BOOK, { search: 'practice' });
    expect(searched.bookPages.map((p: { page_title: string }) => p.page_title)).toEqual([
      'Good Morning: practice',
    ]);
    expect(searched.total).toBe(1);
  });

  it('reads the book’s name and lists its chapters', async () => {
    expect((await suite.client.get('Resources/fetchbookdetails.php', { book_id: BOOK })).body).toMatchObject({
      success: true,
      book: { book_name: 'Sunrise English Reader 1' },
    });
    const chapters = (await suite.client.get('Resources/fetchchapters.php', { book_id: BOOK })).body;
    expect(chapters.chapters.map((c: { chapter_title: string }) => c.chapter_title)).toEqual([
      'Good Morning',
      'Meet My Friends',
      'Grandma’s Garden',
      'Twinkle, Twinkle',
    ]);
    expect((await suite.client.get('Resources/fetchbookdetails.php', { book_id: 9999 })).status).toBe(404);
  });
});

describe('Resources/addbookpages.php', () => {
  it('one `image` without a page number (the V1-V5 client) goes after the book’s last page', async () => {
    const before = await pagesOf(BOOK);
    const last = Math.max(...before.bookPages.map((p: { page_number: number }) => p.page_number));
    const added = await suite.client.post(A.add!, page({ pageTitle: 'Single', image: png() }));
    expect(added).toMatchObject({ status: 200, body: { success: true } });
    const got = (await suite.client.get(A.get!, { page_id: added.body.id })).body.page;
    expect(got).toMatchObject({ page_title: 'Single', page_number: last + 1, chapter_id: 2, book_id: BOOK });
  });

  it('several `file-0..n` make one page each, numbered from the number given, in the order sent', async () => {
    const body = page({ pageTitle: 'Run', pageNumber: 40 });
    // Appended out of order: the index decides.
    body.append('file-2', png('b.png'));
    body.append('file-0', png('c.png'));
    body.append('file-1', sampleFile('jpg', 'a.jpg', 300));
    const added = await suite.client.post(A.add!, body);
    expect(added).toMatchObject({ status: 200, body: { success: true } });
    expect(added.body.ids).toHaveLength(3);
    expect(added.body.id).toBe(added.body.ids[0]);
    const rows = await Promise.all(
      added.body.ids.map(async (id: number) => (await suite.client.get(A.get!, { page_id: id })).body.page),
    );
    expect(rows.map((r) => r.page_number)).toEqual([40, 41, 42]);
    expect(rows.map((r) => r.image_path.split('.').pop())).toEqual(['png', 'jpg', 'png']);
  });

  it('several without a number go after the last page', async () => {
    const before = await pagesOf(BOOK);
    const last = Math.max(...before.bookPages.map((p: { page_number: number }) => p.page_number));
    const body = page({ pageTitle: 'Appended' });
    body.append('file-0', png());
    body.append('file-1', png());
    const added = await suite.client.post(A.add!, body);
    const numbers = await Promise.all(
      added.body.ids.map(
        async (id: number) => (await suite.client.get(A.get!, { page_id: id })).body.page.page_number,
      ),
    );
    expect(numbers).toEqual([last + 1, last + 2]);
  });

  it('refuses what is wrong and stores nothing: no image, not an image, one bad among several, too large, unknown or mismatched parents, a page number below 1', async () => {
    const rows = (await pagesOf(BOOK)).total;
    const files = await stored();
    const bad = async (body: FormData, message: string) => {
      const reply = await suite.client.post(A.add!, body);
      expect(reply, message).toMatchObject({ status: 400, body: { success: false, message } });
    };
    await bad(page(), 'Page Image is required');
    await bad(page({ image: sampleFile('text', 'scan.png') }), 'Page Image must be a png, jpg or jpeg image');
    await bad(page({ image: sampleFile('pdf', 'scan.pdf') }), 'Page Image must be a png, jpg or jpeg image');
    const mixed = page();
    mixed.append('file-0', png());
    mixed.append('file-1', sampleFile('gif', 'old.gif'));
    await bad(mixed, 'Page Image must be a png, jpg or jpeg image');
    await bad(page({ image: png('huge.png', 10 * MB + 1) }), 'Page Image is larger than 10 MB');
    await bad(page({ book_id: 9999, image: png() }), 'Book does not exist');
    await bad(page({ chapterName: 9999, image: png() }), 'Chapter does not exist');
    await bad(
      page({ chapterName: OTHER_BOOK_CHAPTER, image: png() }),
      "Book does not match the chapter's book",
    );
    await bad(page({ pageNumber: 0, image: png() }), 'Page Number must be at least 1');
    await bad(page({ pageTitle: '', image: png() }), 'Page Title is required');
    expect((await pagesOf(BOOK)).total).toBe(rows);
    expect(await stored()).toEqual(files);
  });
});

describe('getpagedetails.php, updatebookpage.php, updatePageNumber.php, deletebookpage.php', () => {
  it('reads a page, updates it with the id in the body, a new image replacing the old file', async () => {
    const id = (await suite.client.post(A.add!, page({ pageTitle: 'To edit', image: png() }))).body.id;
    const before = (await suite.client.get(A.get!, { page_id: id })).body.page;
    const updated = await suite.client.post(
      A.update!,
      form({
        pageTitle: 'Edited',
        chapterName: 3,
        pageNumber: 77,
        page_id: id,
        image: sampleFile('jpg', 'new.jpg'),
      }),
    );
    expect(updated).toMatchObject({ status: 200, body: { success: true } });
    const after = (await suite.client.get(A.get!, { page_id: id })).body.page;
    expect(after).toMatchObject({ page_title: 'Edited', chapter_id: 3, page_number: 77, book_id: BOOK });
    expect(after.image_path).toMatch(/\.jpg$/);
    expect(await stored()).not.toContain(before.image_path);
    // Without a new image the stored one stays; a chapter of another book is refused.
    await suite.client.post(
      A.update!,
      form({ pageTitle: 'Again', chapterName: 3, pageNumber: 77, page_id: id }),
    );
    expect((await suite.client.get(A.get!, { page_id: id })).body.page.image_path).toBe(after.image_path);
    const moved = await suite.client.post(
      A.update!,
      form({ pageTitle: 'Moved', chapterName: OTHER_BOOK_CHAPTER, pageNumber: 1, page_id: id }),
    );
    expect(moved).toMatchObject({ status: 400, body: { success: false } });
    expect((await suite.client.get(A.get!, { page_id: 999999 })).status).toBe(404);
  });

  it('changes a page number through updatePageNumber.php, and refuses what is not one', async () => {
    const id = (await suite.client.post(A.add!, page({ pageTitle: 'Numbered', image: png() }))).body.id;
    const path = 'Resources/updatePageNumber.php';
    expect(await suite.client.post(path, { page_id: id, new_page_number: 12 })).toMatchObject({
      status: 200,
      body: { success: true, message: 'Page number updated successfully' },
    });
    expect((await suite.client.get(A.get!, { page_id: id })).body.page.page_number).toBe(12);
    await suite.client.post(path, { page_id: String(id), new_page_number: '13' });
    expect((await suite.client.get(A.get!, { page_id: id })).body.page.page_number).toBe(13);
    for (const value of ['x', '', 0, -2, 1.5, null]) {
      const reply = await suite.client.post(path, { page_id: id, new_page_number: value });
      expect(reply, String(value)).toMatchObject({ status: 400, body: { success: false } });
    }
    expect((await suite.client.post(path, { page_id: 999999, new_page_number: 2 })).status).toBe(404);
    expect((await suite.client.get(A.get!, { page_id: id })).body.page.page_number).toBe(13);
  });

  it('deletes a page and its image; a chapter or book with pages cannot be deleted', async () => {
    const id = (await suite.client.post(A.add!, page({ pageTitle: 'Gone', image: png() }))).body.id;
    const name = (await suite.client.get(A.get!, { page_id: id })).body.page.image_path;
    expect(await suite.client.post(A.remove!, { page_id: id })).toMatchObject({
      status: 200,
      body: { success: true, message: 'Page deleted successfully' },
    });
    expect(await stored()).not.toContain(name);
    expect((await suite.client.get(A.get!, { page_id: id })).status).toBe(404);
    const chapter = await suite.client.post('Masterfilter/Chapters/deletechapters.php', { chapter_id: 1 });
    expect(chapter).toMatchObject({ status: 409, body: { success: false } });
    expect(chapter.body.message).toMatch(/pages still belong to it/);
  });
});
