/**
 * Content pages on the device: images in rich text are named by the temporary id of their upload
 * and replaced by the server's URL when the content is sent (contract/rich-text/rich-text-images.ts); the
 * content waits for its images like a record for its parents, even across folding (mutate);
 * a single document's add keeps its fixed key; rich text written by the editor and re-written
 * by the server's sanitiser compares equal (no conflict with oneself); the outbox names
 * content and images in words.
 */
import { describe, expect, it } from 'vitest';
import { cleanRichText } from '../../../server/entity-writes/rich-text';
import { aboutUsEntity, contentImageEntity, subjectEntity } from '../../../src/contract/entities';
import { canonicalRichText } from '../../../src/contract/rich-text/rich-text-allowlist';
import {
  contentImageRefs,
  contentImagesByPath,
  contentImageUrl,
  pendingImageIds,
  replacePendingImages,
} from '../../../src/contract/rich-text/rich-text-images';
import type { LocalDb } from '../../../src/db/database';
import { mutate } from '../../../src/db/mutate';
import { entryRequest } from '../../../src/sync/entry-request';
import { mergeEdit } from '../../../src/sync/merge/merge-edit';
import { planQueue } from '../../../src/sync/plan';
import { queueView } from '../../../src/sync/queue-view';
import { pngFile } from '../../helpers/files';
import { freshLocalDbEach } from '../../helpers/local-db';

const A = 'tmp-0b6c1f8e-3f1a-4c2e-9d7e-5a4b3c2d1e0f';
const B = 'tmp-9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b';
const img = (id: string, alt = 'x') =>
  `<img src="blob:http://localhost/${id.slice(4, 8)}" alt="${alt}" data-pending-upload="${id}">`;

describe('images waiting for their upload, in HTML', () => {
  it('are found by their mark, each once, in order', () => {
    const html = `<p>a</p>${img(A)}<p>b</p>${img(B)}${img(A)}<img src="https://x.org/c.png">`;
    expect(pendingImageIds(html)).toEqual([A, B]);
    expect(contentImageRefs(subjectEntity, { subject_name: img(A), subject_content: html })).toEqual([A, B]);
  });

  it('get the server URL and lose the mark; an unknown one keeps both', () => {
    const html = `<p>a</p>${img(A, 'river')}${img(B)}`;
    const { html: out, missing } = replacePendingImages(html, (id) =>
      id === A ? 'https://h/api/uploads/cms/r&d "1".png' : null,
    );
    expect(out).toBe(
      `<p>a</p><img src="https://h/api/uploads/cms/r&amp;d &quot;1&quot;.png" alt="river">${img(B)}`,
    );
    expect(missing).toEqual([B]);
  });

  it('the URL is the upload folder under the API root, by path: no scheme, no host', () => {
    expect(contentImageUrl('https://h:8080/api/', 'a b.png')).toBe('/api/uploads/cms/a%20b.png');
    expect(contentImageUrl('/api', 'a.png')).toBe('/api/uploads/cms/a.png');
  });

  it('refers to images of its own content folder by path, and leaves every other image as it is', () => {
    const html =
      '<p><img src="http://10.0.0.5:8080/api/uploads/cms/a.png" alt="a">' +
      '<img alt="b" src="HTTPS://tablet.local/api/uploads/cms/b.png">' +
      '<img src="https://example.org/api/uploads/book_cover/c.png">' +
      '<img src="https://example.org/uploads/cms/d.png"></p>';
    expect(contentImagesByPath(html, '/api/')).toBe(
      '<p><img src="/api/uploads/cms/a.png" alt="a">' +
        '<img alt="b" src="/api/uploads/cms/b.png">' +
        '<img src="https://example.org/api/uploads/book_cover/c.png">' +
        '<img src="https://example.org/uploads/cms/d.png"></p>',
    );
  });
});

describe('canonical rich text', () => {
  it("the server's re-serialisation of the editor's HTML reads the same", () => {
    const editor =
      '<h2 style="text-align: center">T</h2><p>One<br>two&nbsp;three <span style="color: #c0392b; font-size: 24px">red</span></p>' +
      '<img src="https://h/api/uploads/cms/a.png" alt="a">';
    const stored = cleanRichText(editor);
    expect(stored).not.toBe(editor);
    expect(canonicalRichText(stored)).toBe(canonicalRichText(editor));
    expect(canonicalRichText('<p>One</p>')).not.toBe(canonicalRichText('<p>Two</p>'));
  });

  it('so an edit merged with its own stored earlier version is no conflict; a real change is', () => {
    const base = { content: '<p>One<br>two</p>' };
    const mine = { content: '<p>One<br>three</p>' };
    expect(mergeEdit(aboutUsEntity, base, mine, { content: cleanRichText(base.content) }).conflicts).toEqual(
      [],
    );
    expect(mergeEdit(aboutUsEntity, base, mine, { content: '<p>Other</p>' }).conflicts).toHaveLength(1);
  });
});

describe('on the device', () => {
  let db: LocalDb;
  freshLocalDbEach('content', (opened) => {
    db = opened;
  });

  const addImage = async (name: string) =>
    (await mutate(db, { op: 'add', entity: contentImageEntity, values: { image: pngFile(name) } })).key;
  const saveAbout = (content: string) =>
    mutate(db, { op: 'add', entity: aboutUsEntity, values: { content } });
  const entries = () => db.outbox.orderBy('seq').toArray();

  it("a single document's add keeps its fixed key and folds later saves", async () => {
    expect((await saveAbout('<p>one</p>')).key).toBe('aboutus');
    await saveAbout('<p>two</p>');
    await mutate(db, {
      op: 'update',
      entity: aboutUsEntity,
      key: 'aboutus',
      values: { content: '<p>three</p>' },
    });
    expect(await entries()).toMatchObject([
      { op: 'add', key: 'aboutus', payload: { content: '<p>three</p>' } },
    ]);
    expect(await db.rows(aboutUsEntity).toArray()).toEqual([{ id: 'aboutus', content: '<p>three</p>' }]);
  });

  it('content waits for its images; a save naming a later image is not folded into an earlier entry', async () => {
    await saveAbout('<p>text only</p>');
    const image = await addImage('river.png');
    await saveAbout(`<p>text</p>${img(image)}`);
    const [first, upload, second] = await entries();
    expect([first.entity, upload.entity, second.entity]).toEqual(['aboutUs', 'contentImage', 'aboutUs']);

    const noIds = (id: string) => (id.startsWith('tmp-') ? null : id);
    const plan = planQueue(await entries(), noIds, Date.now());
    expect(plan.ready.map((e) => e.seq)).toEqual([first.seq, upload.seq]);
    expect(plan.waitsFor.get(second.seq)?.seq).toBe(first.seq);
    // Not until the image has its server name can the content be sent, and then with its URL.
    expect(entryRequest(second, noIds, 'https://h/api')).toBeNull();
    const named = (id: string) => (id === image ? 'x1.png' : noIds(id));
    expect(entryRequest(second, named, 'https://h/api')?.body).toEqual({
      content: '<p>text</p><img src="/api/uploads/cms/x1.png" alt="x">',
    });
  });

  it('the outbox names content by what it is and images by their file name', async () => {
    const image = await addImage('river-delta.png');
    await saveAbout(`<p>${'Long words '.repeat(10)}</p>${img(image)}`);
    await mutate(db, {
      op: 'add',
      entity: subjectEntity,
      values: { subject_name: 'S', subject_content: '<p>x</p>' },
    });
    // fake-indexeddb keeps a File as a plain Blob, without its name; Chromium keeps the File.
    const stored = (await entries()).map((e) =>
      e.entity === contentImageEntity.name ? { ...e, payload: { image: pngFile('river-delta.png') } } : e,
    );
    const view = queueView(stored, () => null, Date.now());
    expect(view.map((i) => `${i.action} ${i.record}`)).toEqual([
      'Add Image “river-delta.png”',
      'Add About Us Content',
      'Add Subject “S”',
    ]);
    expect(view[1].waitsFor).toBe('Waits for: Add Image “river-delta.png”');
  });
});
