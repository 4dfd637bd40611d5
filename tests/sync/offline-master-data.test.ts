/**
 * Master data's offline chain against the real server over HTTP: a class, a subject, a series
 * in them, a book with a cover, a section, a unit in that section and a chapter with an
 * image, all made offline, each naming the one before by its temporary id. On reconnect
 * all reach the server in a valid order, exactly once, files included.
 */
import { describe, expect, it } from 'vitest';
import {
  bookEntity,
  chapterEntity,
  classEntity,
  sectionEntity,
  seriesEntity,
  subjectEntity,
  unitEntity,
} from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { mutate, type Values } from '../../src/db/mutate';
import { getRow } from '../../src/db/queries';
import { pull } from '../../src/sync/pull/pull';
import { listFieldOf, listPath } from '../helpers/entry-requests';
import { pdfFile, pngFile } from '../helpers/files';
import type { TestServer } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function setup(opts: { legacy?: boolean; proxy?: boolean } = {}) {
  const server = await fixtures.server({ legacy: opts.legacy });
  const proxy = opts.proxy ? await fixtures.proxy(server) : null;
  const ctx = await fixtures.client(proxy ? `${proxy.url}/api` : server.apiRoot);
  return { server, ctx, proxy };
}

async function serverRows(ctx: Awaited<ReturnType<typeof setup>>['ctx'], entity: EntityDescription) {
  const outcome = await ctx.api.request(listPath(entity), { method: 'GET' });
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body[listFieldOf(entity)] as Record<string, unknown>[];
}

async function buildChain(ctx: Awaited<ReturnType<typeof setup>>['ctx']) {
  const add = async (entity: EntityDescription, values: Values) =>
    (await mutate(ctx.db, { op: 'add', entity, values })).key;
  const class_id = await add(classEntity, { class_name: 'Class 9' });
  const subject_id = await add(subjectEntity, { subject_name: 'Physics', subject_content: '<p>Forces</p>' });
  const throwaway = await add(subjectEntity, { subject_name: 'Typo', subject_content: '<p>x</p>' });
  await mutate(ctx.db, { op: 'delete', entity: subjectEntity, key: throwaway });
  const series_id = await add(seriesEntity, { class_id, subject_id, series_name: 'Physics Now' });
  await mutate(ctx.db, {
    op: 'update',
    entity: seriesEntity,
    key: series_id,
    values: { series_name: 'Physics Today' },
  });
  const parents = { class_id, subject_id, series_id };
  const book_id = await add(bookEntity, {
    ...parents,
    book_name: 'Physics Today 9',
    book_code: 'PT9',
    book_cover: pngFile('cover.png'),
  });
  await mutate(ctx.db, { op: 'set', entity: bookEntity, key: book_id, action: 'popular', value: 'Enabled' });
  const section_id = await add(sectionEntity, { ...parents, book_id, section_name: 'Mechanics' });
  const unit_id = await add(unitEntity, { ...parents, book_id, section_id, unit_title: 'Motion' });
  const chapter_id = await add(chapterEntity, {
    ...parents,
    book_id,
    section_id,
    unit_id,
    chapter_title: 'Speed',
    chapter_description: 'Distance over time',
    chapter_image: pdfFile('speed.pdf'),
  });
  return { class_id, subject_id, series_id, book_id, section_id, unit_id, chapter_id };
}

async function expectChainOnServer(ctx: Awaited<ReturnType<typeof setup>>['ctx'], server: TestServer) {
  const [cls] = (await serverRows(ctx, classEntity)).filter((r) => r.class_name === 'Class 9');
  const subjects = await serverRows(ctx, subjectEntity);
  expect(subjects.map((s) => s.subject_name)).toEqual(['Physics']);
  const [series] = await serverRows(ctx, seriesEntity);
  expect(series).toMatchObject({
    series_name: 'Physics Today',
    class_id: cls.class_id,
    subject_id: subjects[0].subject_id,
  });
  const books = await serverRows(ctx, bookEntity);
  expect(books).toHaveLength(1);
  expect(books[0]).toMatchObject({
    book_name: 'Physics Today 9',
    series_id: series.series_id,
    status: 'Enabled',
  });
  const [section] = await serverRows(ctx, sectionEntity);
  expect(section).toMatchObject({ section_name: 'Mechanics', book_id: books[0].book_id });
  const [unit] = await serverRows(ctx, unitEntity);
  expect(unit).toMatchObject({
    unit_title: 'Motion',
    section_id: section.section_id,
    book_id: books[0].book_id,
  });
  const chapters = await serverRows(ctx, chapterEntity);
  expect(chapters).toHaveLength(1);
  expect(chapters[0]).toMatchObject({
    chapter_title: 'Speed',
    unit_id: unit.unit_id,
    section_id: section.section_id,
  });

  // The files arrived, once each, and are served back.
  const cover = await fetch(`${server.apiRoot}/uploads/book_cover/${books[0].book_cover}`, {
    headers: { cookie: await sessionCookie(server) },
  });
  expect(cover.status).toBe(200);
  expect(new Uint8Array(await cover.arrayBuffer()).slice(0, 4)).toEqual(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
  );
  const detail = await ctx.api.request(chapterEntity.api.get, {
    method: 'GET',
    query: { chapter_id: String(chapters[0].chapter_id) },
  });
  expect(detail.kind === 'reply' && (detail.body.chapter as { chapter_image: string }).chapter_image).toMatch(
    /\.pdf$/,
  );
}

async function sessionCookie(server: TestServer): Promise<string> {
  const { signIn } = await import('../helpers/server');
  return signIn(server.apiRoot);
}

describe('the offline master-data chain', () => {
  it('reaches the server in order, once each, files included, temporary ids replaced', async () => {
    const { server, ctx } = await setup();
    const keys = await buildChain(ctx);
    // Folding: the series edit joined its add, the deleted subject never left, the popular
    // toggle waits as its own entry (status is not sent on add).
    expect(await ctx.db.outbox.count()).toBe(8);
    await drain(ctx);
    expect(await ctx.db.outbox.count()).toBe(0);
    await expectChainOnServer(ctx, server);

    // Locally every record now has its server id, and the old ids still find them.
    const chapter = await getRow(ctx.db, chapterEntity, keys.chapter_id);
    const unit = await getRow(ctx.db, unitEntity, keys.unit_id);
    expect(chapter?.chapter_id).toMatch(/^\d+$/);
    expect(chapter?.unit_id).toBe(unit?.unit_id);
    expect(await pull(ctx)).toEqual({ ok: true });
    expect(await ctx.db.rows(chapterEntity).count()).toBe(1);
    expect(await ctx.db.rows(bookEntity).count()).toBe(1);
  });

  it('survives lost replies on every add without duplicates', async () => {
    const { server, ctx, proxy } = await setup({ proxy: true });
    await buildChain(ctx);
    proxy!.dropRepliesTo(/add\w+\.php/, 7);
    await drain(ctx);
    expect(proxy!.dropped).toBe(7);
    await expectChainOnServer(ctx, server);
  });

  it('works against the legacy server, learning each new id by refetching', async () => {
    const { server, ctx } = await setup({ legacy: true });
    await buildChain(ctx);
    await drain(ctx);
    await expectChainOnServer(ctx, server);
  });
});
