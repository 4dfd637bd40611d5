/**
 * Multipart writes with files (Books' cover, Chapters' image): the content decides the kind,
 * the FileRule decides what is allowed and how large, the stored name is random with the
 * detected extension, and a refused or replayed request stores no file and no row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookEntity, chapterEntity } from '../../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { chapterFields, form, MB, sampleFile, storedFiles } from '../support/files';

let server: TestServer;
let cookie: string;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
  cookie = await signIn(server.apiRoot);
  client = api(server.apiRoot, cookie);
});
afterAll(() => server.close());

const B = bookEntity.api;
const C = chapterEntity.api;
const parents = { selectedClass: 1, selectedSubject: 1, selectedSeries: 1 };
const book = {
  ...parents,
  bookName: 'Uploaded book',
  bookCode: 'UP-1',
  activityFolderName: '',
  fileToAccess: '',
  bookDownloadLink: '',
  androidDownloadLink: '',
  bookDescription: '',
};
const chapter = chapterFields('Uploaded chapter');

const covers = () => storedFiles(server.storage, 'book_cover');
const media = () => storedFiles(server.storage, 'chapter_content');
const total = async (path: string) => (await client.get(path)).body.total as number;
const getBook = async (id: number) => (await client.get(B.get, { book_id: id })).body.book;
const getChapter = async (id: number) => (await client.get(C.get, { chapter_id: id })).body.chapter;

describe('book covers', () => {
  it('stores a cover under a random name with the detected extension and serves it', async () => {
    const before = await covers();
    const added = await client.post(
      B.add,
      form({ ...book, bookCover: sampleFile('png', 'My Cover.png', 1000) }),
    );
    expect(added).toMatchObject({ status: 200, body: { success: true, message: 'Book added successfully' } });
    const row = await getBook(added.body.id);
    expect(row.book_cover).toMatch(/^[0-9]+_[0-9a-f]{16}\.png$/);
    expect(await covers()).toEqual([...before, row.book_cover].sort());
    const res = await fetch(`${server.apiRoot}/uploads/book_cover/${row.book_cover}`, {
      headers: { Cookie: cookie },
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(1000);
  });

  it('goes by content: a PNG named .pdf is a png, a JPEG named .gif a jpg', async () => {
    for (const [file, ext] of [
      [sampleFile('png', 'cover.pdf'), 'png'],
      [sampleFile('jpg', 'cover.gif'), 'jpg'],
      [sampleFile('gif', 'cover'), 'gif'],
    ] as const) {
      const { body } = await client.post(B.add, form({ ...book, bookCover: file }));
      expect(body.success).toBe(true);
      expect((await getBook(body.id)).book_cover.endsWith(`.${ext}`)).toBe(true);
    }
  });

  it('adds without a cover: no file part, or an empty one', async () => {
    const none = await client.post(B.add, form(book));
    expect((await getBook(none.body.id)).book_cover).toBeNull();
    const empty = await client.post(B.add, form({ ...book, bookCover: new File([], '') }));
    expect((await getBook(empty.body.id)).book_cover).toBeNull();
  });

  it('update without a new cover keeps it; with one replaces it and removes the old file', async () => {
    const { body: added } = await client.post(
      B.add,
      form({ ...book, bookCover: sampleFile('png', 'a.png') }),
    );
    const first = (await getBook(added.id)).book_cover;
    const update = { ...book, book_id: added.id, bookName: 'Renamed book' };
    delete (update as Record<string, unknown>).activityFolderName;
    await client.post(B.update, form(update));
    expect(await getBook(added.id)).toMatchObject({ book_name: 'Renamed book', book_cover: first });

    const replaced = await client.post(B.update, form({ ...update, bookCover: sampleFile('gif', 'b.gif') }));
    expect(replaced.body).toMatchObject({ success: true, message: 'Book updated successfully' });
    const second = (await getBook(added.id)).book_cover;
    expect(second).toMatch(/\.gif$/);
    const files = await covers();
    expect(files).toContain(second);
    expect(files).not.toContain(first);
  });

  it('deleting a book removes its cover', async () => {
    const { body: added } = await client.post(
      B.add,
      form({ ...book, bookCover: sampleFile('png', 'a.png') }),
    );
    const name = (await getBook(added.id)).book_cover;
    expect(await covers()).toContain(name);
    expect((await client.post(B.remove, { book_id: added.id })).body.success).toBe(true);
    expect(await covers()).not.toContain(name);
  });
});

describe('chapter media', () => {
  it("accepts the text 'null' as no file (Add Chapter always sends chapterImage)", async () => {
    const before = await media();
    const { body } = await client.post(C.add, form({ ...chapter, chapterImage: 'null' }));
    expect(body).toMatchObject({ success: true, message: 'Chapter added successfully' });
    expect(await getChapter(body.id)).toMatchObject({ chapter_image: null, section_id: null, unit_id: null });
    expect(await media()).toEqual(before);
  });

  it('accepts a 3 MB pdf on add (10 MB limit) but not on update (2 MB limit)', async () => {
    const pdf = () => sampleFile('pdf', 'lesson.pdf', 3 * MB);
    const added = await client.post(C.add, form({ ...chapter, chapterImage: pdf() }));
    expect(added.body.success).toBe(true);
    const stored = (await getChapter(added.body.id)).chapter_image;
    expect(stored).toMatch(/\.pdf$/);
    const before = await media();
    const updated = await client.post(
      `${C.update}?chapter_id=${added.body.id}`,
      form({ ...chapter, chapterName: 'Not saved', chapterImage: pdf() }),
    );
    expect(updated).toMatchObject({
      status: 400,
      body: { success: false, message: 'Chapter Image is larger than 2 MB' },
    });
    expect(await getChapter(added.body.id)).toMatchObject({
      chapter_title: 'Uploaded chapter',
      chapter_image: stored,
    });
    expect(await media()).toEqual(before);
  });

  it('update with a small png replaces the pdf; sections and units given by id', async () => {
    const { body: added } = await client.post(
      C.add,
      form({ ...chapter, chapterImage: sampleFile('pdf', 'x.pdf') }),
    );
    const reply = await client.post(
      `${C.update}?chapter_id=${added.id}`,
      form({ ...chapter, selectedSection: 1, selectedUnit: 1, chapterImage: sampleFile('png', 'x.png') }),
    );
    expect(reply.body).toMatchObject({ success: true, message: 'Chapter updated successfully' });
    expect(await getChapter(added.id)).toMatchObject({
      chapter_image: expect.stringMatching(/\.png$/),
      section_name: 'Part A: Stories',
      unit_title: 'Unit 1: Hello!',
    });
  });
});

describe('refusals store no file and no row', () => {
  let before: { books: number; chapters: number; covers: string[]; media: string[] };
  beforeEach(async () => {
    before = {
      books: await total(B.list),
      chapters: await total(C.list),
      covers: await covers(),
      media: await media(),
    };
  });
  const unchanged = async () =>
    expect({
      books: await total(B.list),
      chapters: await total(C.list),
      covers: await covers(),
      media: await media(),
    }).toEqual(before);

  const cases: [string, string, () => FormData, number, string][] = [
    [
      'a text file named cover.jpg',
      B.add,
      () => form({ ...book, bookCover: sampleFile('text', 'cover.jpg') }),
      400,
      'Book Cover must be a jpg, jpeg, png or gif image',
    ],
    [
      'a pdf as a cover',
      B.add,
      () => form({ ...book, bookCover: sampleFile('pdf', 'cover.png') }),
      400,
      'Book Cover must be a jpg, jpeg, png or gif image',
    ],
    [
      'a cover of 2 MB + 1 byte',
      B.add,
      () => form({ ...book, bookCover: sampleFile('png', 'big.png', 2 * MB + 1) }),
      400,
      'Book Cover is larger than 2 MB',
    ],
    [
      'a cover sent as text',
      B.add,
      () => form({ ...book, bookCover: 'cover.png' }),
      400,
      'Book Cover must be a file',
    ],
    [
      'a valid cover with an unknown series',
      B.add,
      () => form({ ...book, selectedSeries: 999, bookCover: sampleFile('png', 'ok.png') }),
      400,
      'Series does not exist',
    ],
    [
      'a valid cover without a book code',
      B.add,
      () => form({ ...book, bookCode: '', bookCover: sampleFile('png', 'ok.png') }),
      400,
      'Book Code is required',
    ],
    [
      'a valid cover for an unknown book',
      B.update,
      () => form({ ...book, book_id: 999, bookCover: sampleFile('png', 'ok.png') }),
      404,
      'Book not found',
    ],
    [
      'chapter media of 10 MB + 1 byte',
      C.add,
      () => form({ ...chapter, chapterImage: sampleFile('pdf', 'big.pdf', 10 * MB + 1) }),
      400,
      'Chapter Image is larger than 10 MB',
    ],
    [
      'chapter media that is text',
      C.add,
      () => form({ ...chapter, chapterImage: sampleFile('text', 'notes.pdf') }),
      400,
      'Chapter Image must be a jpg, jpeg, png, gif or pdf file',
    ],
    [
      'valid media with an unknown unit',
      C.add,
      () => form({ ...chapter, selectedUnit: 999, chapterImage: sampleFile('png', 'ok.png') }),
      400,
      'Unit does not exist',
    ],
    [
      'valid media without a chapter name',
      C.add,
      () => form({ ...chapter, chapterName: '', chapterImage: sampleFile('png', 'ok.png') }),
      400,
      'Chapter Name is required',
    ],
  ];
  it.each(cases)('%s', async (_name, path, body, status, message) => {
    expect(await client.post(path, body())).toMatchObject({ status, body: { success: false, message } });
    await unchanged();
  });

  it('refuses a body over 12 MB with a JSON 413', async () => {
    const reply = await client.post(
      C.add,
      form({ ...chapter, chapterImage: sampleFile('pdf', 'huge.pdf', 13 * MB) }),
    );
    expect(reply).toMatchObject({
      status: 413,
      body: { success: false, message: 'Request body is larger than 12 MB' },
    });
    await unchanged();
  });
});

describe('idempotent multipart', () => {
  it('a replayed add creates one row and one file', async () => {
    const key = { 'Idempotency-Key': 'book-with-cover-1' };
    const coversBefore = await covers();
    const booksBefore = await total(B.list);
    const body = () =>
      form({ ...book, bookName: 'Once with cover', bookCover: sampleFile('png', 'once.png') });
    const first = await client.post(B.add, body(), key);
    const again = await client.post(B.add, body(), key);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await total(B.list)).toBe(booksBefore + 1);
    expect((await covers()).length).toBe(coversBefore.length + 1);
  });
});
