/**
 * The library (api-contract §3.15 and the spec's fetchResource.php and updatelibrary.php): every
 * field name of spec §3, files checked by content and size in their own folders (a video is an
 * mp4, audio an mp3, documents pdf or office files, a thumbnail an image), links and the iframe
 * as web addresses only, the chapter optional, parents that exist and agree. Failures of add
 * and update carry their message under `error` too, which is what the original reads.
 */
import { describe, expect, it } from 'vitest';
import type { UploadFolder } from '../../../server/storage/folders';
import { libraryResourceEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';
import { form, MB, sampleFile, storedFiles } from '../support/files';

const suite = signedInSuite({ seedDemo: true });
const A = libraryResourceEntity.api;
/** Seeded: class 1, subject 1 (English), series 1, book 1, chapters 1-4 of book 1; chapter 5 is of book 4; types 1-6. */
const tagged = { selectedClass: 1, selectedSubject: 1, selectedSeries: 1, selectedBook: 1 };
const resource = (fields: Record<string, string | number | File> = {}) =>
  form({
    ...tagged,
    selectedChapter: 1,
    resourceTitle: 'Greetings',
    resourceType: 1,
    resourceCategory: '',
    ...fields,
  });
const get = async (id: number) => (await suite.client.get(A.get!, { resource_id: id })).body.resource;
const count = async () => (await suite.client.get(A.list!)).body.total as number;

describe('Resources/Library/addlibrary.php and fetchlibrary.php', () => {
  it('stores every field and file of the form, each file in its folder', async () => {
    const added = await suite.client.post(
      A.add!,
      resource({
        resourceTitle: 'Everything',
        resourceType: 2,
        resourceCategory: 'Worksheets',
        resourceLink: 'https://example.org/link',
        theoryNotes: 'Notes',
        resourceIframe: 'https://example.org/embed',
        documentLink: 'https://example.org/doc',
        lessonPlanLink: 'https://example.org/plan',
        audioLink: 'https://example.org/a.mp3',
        videoLink: 'https://example.org/v',
        videoQuestion: 'What happens next?',
        interactivitiesLink: 'https://example.org/i',
        addnworksheetsLink: 'https://example.org/w',
        addnactivitiesLink: 'https://example.org/act',
        answerkeysLink: 'https://example.org/keys',
        videoFile: sampleFile('mp4', 'lesson.mp4', 2000),
        documentFile: sampleFile('docx', 'sheet.docx', 2000),
        audioFile: sampleFile('mp3', 'song.mp3', 2000),
        thumbImage: sampleFile('png', 'thumb.png'),
        interactivitiesFile: sampleFile('zip', 'game.zip', 2000),
        addnworksheetsFile: sampleFile('pdf', 'w.pdf'),
        addnactivitiesFile: sampleFile('pptx', 'act.pptx', 2000),
        answerkeysFile: sampleFile('pdf', 'keys.pdf'),
      }),
    );
    expect(added).toMatchObject({
      status: 200,
      body: { success: true, message: 'Resource added successfully' },
    });
    const row = await get(added.body.id);
    expect(row).toMatchObject({
      class_id: 1,
      subject_id: 1,
      series_id: 1,
      book_id: 1,
      chapter_id: 1,
      resource_title: 'Everything',
      resource_type: 2,
      resource_type_name: 'Worksheet',
      resource_category: 'Worksheets',
      resource_link: 'https://example.org/link',
      notes_content: 'Notes',
      iframe_link: 'https://example.org/embed',
      document_link: 'https://example.org/doc',
      lesson_plan_link: 'https://example.org/plan',
      audio_link: 'https://example.org/a.mp3',
      video_link: 'https://example.org/v',
      video_question: 'What happens next?',
      interactivities_link: 'https://example.org/i',
      addnworksheets_link: 'https://example.org/w',
      addnactivities_link: 'https://example.org/act',
      answerkeys_link: 'https://example.org/keys',
      book_name: 'Sunrise English Reader 1',
      chapter_name: 'Good Morning',
    });
    const files: [string, string, string][] = [
      ['video_file', 'videos', 'mp4'],
      ['document_file', 'documents', 'docx'],
      ['audio_file', 'audio', 'mp3'],
      ['thumb_image', 'thumbnails', 'png'],
      ['interactivities_file', 'interactivities', 'zip'],
      ['addnworksheets_file', 'addnworksheets', 'pdf'],
      ['addnactivities_file', 'addnactivities', 'pptx'],
      ['answerkeys_file', 'answerkeys', 'pdf'],
    ];
    const originals: Record<string, string> = {
      video_file: 'lesson.mp4',
      document_file: 'sheet.docx',
      audio_file: 'song.mp3',
      thumb_image: 'thumb.png',
      interactivities_file: 'game.zip',
      addnworksheets_file: 'w.pdf',
      addnactivities_file: 'act.pptx',
      answerkeys_file: 'keys.pdf',
    };
    for (const [column, folder, ext] of files) {
      // Stored under a name of its own; the one it had on the device beside it.
      expect(row[`${column}_name`], column).toBe(originals[column]);
      expect(row[column], column).toMatch(new RegExp(`\\.${ext}$`));
      expect(await storedFiles(suite.server.storage, folder as UploadFolder), folder).toContain(row[column]);
    }
    const listed = (
      await suite.client.get(A.list!, { search: 'Everyth', page: 1, limit: 10, sortOption: '' })
    ).body;
    expect(listed).toMatchObject({ success: true, total: 1 });
    expect(listed.libraryResources[0]).toMatchObject({
      resource_id: added.body.id,
      resource_title: 'Everything',
      resource_type: 2,
      book_name: 'Sunrise English Reader 1',
      chapter_name: 'Good Morning',
    });
  });

  it('takes a resource for a whole book (no chapter) and only the fields that are filled (V4/V5)', async () => {
    const body = form({ ...tagged, selectedChapter: '', resourceTitle: 'Whole book', resourceType: 5 });
    const added = await suite.client.post(A.add!, body);
    expect(added.status).toBe(200);
    expect(await get(added.body.id)).toMatchObject({
      chapter_id: null,
      chapter_name: null,
      notes_content: '',
    });
  });

  it('refuses wrong files, unsafe links, unknown and mismatched parents, with `error` as well', async () => {
    const before = await count();
    const bad = async (fields: Record<string, string | number | File>, message: string) => {
      const reply = await suite.client.post(A.add!, resource(fields));
      expect(reply, message).toMatchObject({
        status: 400,
        body: { success: false, message, error: message },
      });
    };
    await bad({ audioFile: sampleFile('text', 'song.mp3') }, 'Audio File must be a mp3 file');
    await bad({ audioFile: sampleFile('mp4', 'song.mp3', 600) }, 'Audio File must be a mp3 file');
    await bad({ videoFile: sampleFile('png', 'clip.mp4') }, 'Video File must be a mp4 file');
    await bad(
      { documentFile: sampleFile('zip', 'notes.docx', 600) },
      'Document must be a pdf, docx, pptx, xlsx, odt, odp or ods file',
    );
    await bad({ thumbImage: sampleFile('pdf', 'thumb.png') }, 'Thumbnail must be a jpg, jpeg or png image');
    await bad({ thumbImage: sampleFile('png', 'big.png', 2 * MB + 1) }, 'Thumbnail is larger than 2 MB');
    await bad(
      { resourceIframe: 'javascript:alert(1)' },
      'Iframe Link must be a web address starting with http:// or https://',
    );
    await bad(
      { resourceIframe: 'data:text/html,<script>alert(1)</script>' },
      'Iframe Link must be a web address starting with http:// or https://',
    );
    await bad(
      { resourceLink: 'ftp://example.org/x' },
      'Link must be a web address starting with http:// or https://',
    );
    await bad({ resourceType: 999 }, 'Resource Type does not exist');
    await bad(
      { resourceType: 'slides' },
      'Resource Type must be an id or one of videos, documents, audio, interactivities, addnworksheets, addnactivities, answerkeys, lessonplans',
    );
    await bad({ selectedBook: 999 }, 'Book does not exist');
    await bad({ selectedChapter: 5 }, "Book does not match the chapter's book");
    await bad({ resourceTitle: '' }, 'Resource Title is required');
    expect(await count()).toBe(before);
  });
});

describe('fetchResource.php, updatelibrary.php, deletelibrary.php', () => {
  it('reads, updates with the id in the body (reply success, files replaced), and deletes', async () => {
    const id = (await suite.client.post(A.add!, resource({ thumbImage: sampleFile('png', 't.png') }))).body
      .id;
    const old = (await get(id)).thumb_image;
    const updated = await suite.client.post(
      A.update!,
      resource({
        resource_id: id,
        resourceTitle: 'Renamed',
        resourceType: 4,
        resourceIframe: 'https://example.org/x',
        thumbImage: sampleFile('jpg', 't.jpg'),
      }),
    );
    expect(updated).toMatchObject({
      status: 200,
      body: { success: true, message: 'Resource added successfully' },
    });
    const row = await get(id);
    expect(row).toMatchObject({
      resource_title: 'Renamed',
      resource_type: 4,
      iframe_link: 'https://example.org/x',
    });
    expect(row.thumb_image).toMatch(/\.jpg$/);
    expect(await storedFiles(suite.server.storage, 'thumbnails')).not.toContain(old);

    const refused = await suite.client.post(
      A.update!,
      resource({ resource_id: id, resourceIframe: 'javascript:x' }),
    );
    expect(refused).toMatchObject({ status: 400, body: { success: false, error: expect.any(String) } });
    expect(await suite.client.post(A.update!, resource({ resource_id: 999999 }))).toMatchObject({
      status: 404,
    });

    expect(await suite.client.post(A.remove!, { resource_id: id })).toMatchObject({
      status: 200,
      body: { success: true, message: 'Library resource deleted successfully' },
    });
    expect((await suite.client.get(A.get!, { resource_id: id })).status).toBe(404);
    expect(await storedFiles(suite.server.storage, 'thumbnails')).not.toContain(row.thumb_image);
  });
});
