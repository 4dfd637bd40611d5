/**
 * Stored content: rich text is cleaned with the shared allowlist before it is
 * stored (what the toolbar makes stays, scripts, handlers and javascript: links go), on add
 * and update, so every reader gets it clean; link fields take only http and https URLs or
 * nothing, refused with a 400 that names the field and writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { bookEntity, subjectEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const S = subjectEntity.api;
const B = bookEntity.api;

const HOSTILE =
  '<p onclick="steal()">Hello <strong>bold</strong> <a href="javascript:alert(1)">bad</a> ' +
  '<a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">good</a></p>' +
  '<img src="/api/uploads/x.png" onerror="alert(1)"><script>alert(2)</script>' +
  '<p style="text-align: center; position: fixed"><span style="color: #ff0000; background-image: url(x)">red</span></p>' +
  '<p><a href="JaVaScRiPt:alert(3)">caps</a><img src="data:image/png;base64,AAAA"></p>';

const CLEAN =
  '<p>Hello <strong>bold</strong> <a>bad</a> ' +
  '<a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">good</a></p>' +
  '<img src="/api/uploads/x.png" />' +
  '<p style="text-align:center"><span style="color:#ff0000">red</span></p>' +
  '<p><a>caps</a></p>';

async function storedSubject(id: number): Promise<string> {
  return (await suite.client.get(S.get, { subject_id: id })).body.subject.subject_content;
}

async function listedSubject(id: number): Promise<string> {
  const rows: Record<string, unknown>[] = (await suite.client.get(S.list)).body[S.listField];
  return rows.find((r) => Number(r.subject_id) === id)?.subject_content as string;
}

describe('rich text is stored clean', () => {
  it('add: img onerror, script, javascript: and data: URLs and foreign styles are removed', async () => {
    const added = await suite.client.post(S.add, { subjectName: 'Hostile', subjectContent: HOSTILE });
    expect(added.body).toMatchObject({ success: true, message: 'Subject added successfully' });
    expect(await storedSubject(added.body.subject_id)).toBe(CLEAN);
    expect(await listedSubject(added.body.subject_id)).toBe(CLEAN);
  });

  it('update: the same, and what the toolbar makes is kept', async () => {
    const added = await suite.client.post(S.add, { subjectName: 'Plain', subjectContent: '<p>plain</p>' });
    const id = added.body.subject_id;
    const updated = await suite.client.post(S.update, {
      subject_id: id,
      subjectName: 'Plain',
      subjectContent: `<h2 style="text-align: right">Title</h2>${HOSTILE}`,
    });
    expect(updated.body).toMatchObject({ success: true });
    expect(await storedSubject(id)).toBe(`<h2 style="text-align:right">Title</h2>${CLEAN}`);
  });

  it('content that cleans down to nothing counts as missing, and nothing is written', async () => {
    const before = (await suite.client.get(S.list)).body.total;
    const reply = await suite.client.post(S.add, {
      subjectName: 'Only a script',
      subjectContent: '<script>alert(1)</script><p onclick="x()"></p>',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ success: false, message: 'Subject Content is required' });
    expect((await suite.client.get(S.list)).body.total).toBe(before);
  });
});

describe('link fields take http and https only', () => {
  const book = {
    selectedClass: 1,
    selectedSubject: 1,
    selectedSeries: 1,
    bookName: 'Linked book',
    bookCode: 'LB-1',
    bookDownloadLink: 'https://example.org/book.pdf',
    androidDownloadLink: '',
  };
  const books = async () => (await suite.client.get(B.list)).body[B.listField] as Record<string, unknown>[];

  it('accepts an https link and an empty one', async () => {
    const added = await suite.client.post(B.add, book);
    expect(added.body).toMatchObject({ success: true });
    const row = (await books()).find((b) => b.book_id === added.body.book_id);
    expect(row).toMatchObject({ book_download_link: 'https://example.org/book.pdf' });
  });

  it.each([
    ['bookDownloadLink', 'Book Download Link', 'javascript:alert(1)'],
    ['androidDownloadLink', 'TPG Download Link', 'javascript:alert(1)'],
    ['bookDownloadLink', 'Book Download Link', 'data:text/html,<script>alert(1)</script>'],
    ['bookDownloadLink', 'Book Download Link', 'ftp://example.org/book.pdf'],
    ['bookDownloadLink', 'Book Download Link', 'example.org/book.pdf'],
  ])('add refuses %s = %s', async (wire, label, value) => {
    const before = await books();
    const reply = await suite.client.post(B.add, { ...book, bookCode: 'LB-2', [wire]: value });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      success: false,
      message: `${label} must be a web address starting with http:// or https://`,
    });
    expect(await books()).toEqual(before);
  });

  it('update refuses javascript:alert(1) and keeps the stored link', async () => {
    const added = await suite.client.post(B.add, { ...book, bookCode: 'LB-3' });
    const id = added.body.book_id;
    const reply = await suite.client.post(B.update, {
      ...book,
      book_id: id,
      bookCode: 'LB-3',
      bookDownloadLink: 'javascript:alert(1)',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(
      'Book Download Link must be a web address starting with http:// or https://',
    );
    const row = (await books()).find((b) => b.book_id === id);
    expect(row).toMatchObject({ book_download_link: 'https://example.org/book.pdf' });
  });
});
