/**
 * Content offline, against the real server over HTTP in both modes: a chapter made offline,
 * pages of it with several images, a library resource with files for that chapter and a
 * question with an image, each naming the one before by its temporary id, and (on our server,
 * the PHP API has no image endpoint) the About Us content with an image inserted offline,
 * which names the image's upload by its temporary id in turn; on reconnect all
 * reach the server once, in a valid order, files included (a large video travels in resumable
 * chunks to our server, inline to the legacy one). Page-number edits fold like toggles, and
 * the question edit (our extension) is told apart from a server without it.
 */
import { describe, expect, it } from 'vitest';
import {
  aboutUsEntity,
  bookPageEntity,
  chapterEntity,
  contentImageEntity,
  libraryResourceEntity,
  questionEntity,
} from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { contentImageUrl } from '../../src/contract/rich-text/rich-text-images';
import { mutate } from '../../src/db/mutate';
import { addSeveral } from '../../src/db/mutations/add-several';
import { resolveId } from '../../src/db/resolve';
import { hasExtension } from '../../src/sync/api/extension-probe';
import { pull } from '../../src/sync/pull/pull';
import { subscribeUploadProgress, type UploadProgress } from '../../src/sync/uploads/progress-channel';
import { listFieldOf, listPath } from '../helpers/entry-requests';
import type { ProxiedRequest } from '../helpers/fault-proxy';
import { pdfFile, pngFile } from '../helpers/files';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const MB = 1024 * 1024;
/** Seeded: class 1, subject 1, series 1, book 1 (with pages 1-3 in chapters 1 and 2). */
const LEVELS = { class_id: '1', subject_id: '1', series_id: '1', book_id: '1' };

/** An mp4 (its 'ftyp' box, then zeros) of `size` bytes. */
function mp4File(size: number): File {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18, ...[...'ftypmp42'].map((c) => c.charCodeAt(0))]);
  return new File([bytes], 'lesson.mp4', { type: 'video/mp4' });
}

type Ctx = Awaited<ReturnType<typeof fixtures.client>>;

/**
 * A request the server took: not lost to a fault, and not an item of a batch the legacy server
 * answered 404 (the client's first try, after which items go one by one).
 */
const taken = (legacy: boolean) => (r: ProxiedRequest) => r.fault === 'pass' && !(legacy && r.batched);

async function serverRows(ctx: Ctx, entity: EntityDescription): Promise<Record<string, unknown>[]> {
  const outcome = await ctx.api.request(listPath(entity), { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body[listFieldOf(entity)] as Record<string, unknown>[];
}

describe.each([
  ['our server', false],
  ['the legacy server', true],
])('content against %s', (_name, legacy) => {
  it(`chapter → pages with several images → resource with files → question with an image${legacy ? '' : ' → content with an inserted image'}, all offline`, async () => {
    const { server, proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
    await pull(ctx);

    const chapter = await mutate(ctx.db, {
      op: 'add',
      entity: chapterEntity,
      values: {
        ...LEVELS,
        section_id: '',
        unit_id: '',
        chapter_title: 'Offline Chapter',
        chapter_description: '',
      },
    });
    const pages = await addSeveral(
      ctx.db,
      bookPageEntity,
      { book_id: '1', chapter_id: chapter.key, page_title: 'Offline page', page_number: '' },
      [pngFile('p1.png', 400), pngFile('p2.png', 500)],
    );
    // Our server takes the video in resumable chunks (over 4 MB); the legacy one inline.
    const video = mp4File(legacy ? 64 * 1024 : 5 * MB);
    const resource = await mutate(ctx.db, {
      op: 'add',
      entity: libraryResourceEntity,
      values: {
        ...LEVELS,
        chapter_id: chapter.key,
        resource_title: 'Offline worksheet',
        resource_type: '2',
        document_file: pdfFile('sheet.pdf'),
        video_file: video,
      },
    });
    const question = await mutate(ctx.db, {
      op: 'add',
      entity: questionEntity,
      values: {
        ...LEVELS,
        chapter_id: chapter.key,
        question_type: 'trueFalse',
        question_title: 'Offline question?',
        question_image: pngFile('q.png'),
      },
    });
    // As the editor does it: the image queued as an add, the content naming its temporary id.
    const image = legacy
      ? null
      : await mutate(ctx.db, {
          op: 'add',
          entity: contentImageEntity,
          values: { image: pngFile('map.png', 600) },
        });
    if (image)
      await mutate(ctx.db, {
        op: 'update',
        entity: aboutUsEntity,
        key: aboutUsEntity.single!.id,
        values: {
          content: `<p>Offline about</p><img src="blob:http://localhost/x" alt="map" data-pending-upload="${image.key}">`,
        },
      });

    const progress: UploadProgress[] = [];
    const stop = subscribeUploadProgress((p) => progress.push(p));
    try {
      await drain(ctx);
    } finally {
      stop();
    }
    expect(await ctx.db.outbox.count()).toBe(0);

    const [chapterRow] = (await serverRows(ctx, chapterEntity)).filter(
      (c) => c.chapter_title === 'Offline Chapter',
    );
    const chapterId = String(chapterRow.chapter_id);
    expect(await resolveId(ctx.db, chapter.key)).toBe(chapterId);

    const pageRows = (await serverRows(ctx, bookPageEntity)).filter((p) => p.page_title === 'Offline page');
    // After the book's three seeded pages, in the order chosen.
    expect(pageRows.map((p) => [p.page_number, String(p.chapter_id)]).sort()).toEqual([
      [4, chapterId],
      [5, chapterId],
    ]);
    expect(pageRows.every((p) => String(p.image_path).endsWith('.png'))).toBe(true);
    for (const p of pages)
      expect(pageRows.map((r) => String(r.page_id))).toContain(await resolveId(ctx.db, p.key));

    const [resourceRow] = (await serverRows(ctx, libraryResourceEntity)).filter(
      (r) => r.resource_title === 'Offline worksheet',
    );
    expect(String(resourceRow.chapter_id)).toBe(chapterId);
    expect(await resolveId(ctx.db, resource.key)).toBe(String(resourceRow.resource_id));
    const full = await ctx.api.request('Resources/Library/fetchResource.php', {
      method: 'GET',
      query: { resource_id: String(resourceRow.resource_id) },
    });
    if (full.kind !== 'reply') throw new Error('no reply');
    const stored = full.body.resource as Record<string, string>;
    expect(stored.document_file).toMatch(/\.pdf$/);
    expect(stored.video_file).toMatch(/\.mp4$/);
    const served = await fetch(`${server.apiRoot}/uploads/videos/${stored.video_file}`);
    expect((await served.arrayBuffer()).byteLength).toBe(video.size);

    const [questionRow] = (await serverRows(ctx, questionEntity)).filter(
      (q) => q.question_title === 'Offline question?',
    );
    expect(String(questionRow.chapter_id)).toBe(chapterId);
    expect(questionRow.chapter_name).toBe('Offline Chapter');
    expect(String(questionRow.question_image)).toMatch(/\.png$/);
    expect(await resolveId(ctx.db, question.key)).toBe(String(questionRow.id));

    if (image) {
      // The content went after its image, with the server's URL in place of the temporary id.
      const name = await resolveId(ctx.db, image.key);
      expect(name).toMatch(/\.png$/);
      const about = await ctx.api.request(aboutUsEntity.api.get!, { method: 'GET' });
      if (about.kind !== 'reply') throw new Error('no reply');
      expect(about.body.content).toBe(
        `<p>Offline about</p><img src="${contentImageUrl(`${proxy.url}/api`, name)}" alt="map" />`,
      );
      const served = await fetch(`${server.apiRoot}/uploads/cms/${name}`);
      expect((await served.arrayBuffer()).byteLength).toBe(600);
    }

    // Each add reached the server once.
    const adds = proxy.log.filter((r) => /\/add\w+\.php$/.test(r.target)).filter(taken(legacy));
    expect(adds.map((r) => r.target.replace(/^.*\//, '')).sort()).toEqual([
      'addbookpages.php',
      'addbookpages.php',
      'addchapters.php',
      ...(legacy ? [] : ['addimage.php']),
      'addlibrary.php',
      'addquestion.php',
    ]);
    if (!legacy)
      expect(
        proxy.log.filter(taken(legacy)).filter((r) => /updateaboutus\.php$/.test(r.target)),
      ).toHaveLength(1);
    // The video went ahead in chunks to our server, and said how far it was.
    if (!legacy) {
      expect(proxy.log.some((r) => /\/uploads\/resumable/.test(r.target))).toBe(true);
      const last = progress.filter((p) => p.field === 'video_file').at(-1);
      expect(last).toMatchObject({ sent: video.size, total: video.size });
    } else expect(proxy.log.some((r) => /\/uploads\/resumable/.test(r.target))).toBe(false);
  });

  it('page-number edits fold: the last one goes once, one undone goes not at all', async () => {
    const { proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
    await pull(ctx);
    const seeded = (await ctx.db.rows(bookPageEntity).toArray()).sort(
      (a, b) => Number(a.page_number) - Number(b.page_number),
    );
    const [first, second] = seeded.map((p) => String(p.page_id));
    const set = (key: string, value: number) =>
      mutate(ctx.db, { op: 'set', entity: bookPageEntity, key, action: 'pageNumber', value });
    await set(first, 5);
    await set(first, 7);
    await set(second, 9);
    await set(second, Number(seeded[1].page_number));
    expect(await ctx.db.outbox.count()).toBe(1);
    await drain(ctx);

    const sent = proxy.log.filter((r) => r.target.endsWith('/updatePageNumber.php')).filter(taken(legacy));
    expect(sent).toHaveLength(1);
    const rows = await serverRows(ctx, bookPageEntity);
    expect(rows.find((r) => String(r.page_id) === first)?.page_number).toBe(7);
    expect(rows.find((r) => String(r.page_id) === second)?.page_number).toBe(seeded[1].page_number);
  });

  it(`question edit: ${legacy ? 'the server has no endpoint for it' : 'an offline edit reaches updatequestion.php'}`, async () => {
    const { proxy, ctx } = await fixtures.proxied({ legacy, seedDemo: true });
    expect(await hasExtension(ctx.api, questionEntity)).toBe(!legacy);
    if (legacy) return;
    await pull(ctx);
    const [q] = await ctx.db.rows(questionEntity).toArray();
    await mutate(ctx.db, {
      op: 'update',
      entity: questionEntity,
      key: String(q.id),
      values: { question_title: 'Edited offline', question_answer: 'Yes' },
    });
    await drain(ctx);
    expect(proxy.log.some((r) => r.target.endsWith('/Resources/updatequestion.php'))).toBe(true);
    const row = (await serverRows(ctx, questionEntity)).find(
      (r) => r.id === q.id || String(r.id) === String(q.id),
    );
    expect(row).toMatchObject({
      question_title: 'Edited offline',
      question_answer: 'Yes',
      question_type: q.question_type,
    });
  });
});
