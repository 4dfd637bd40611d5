/**
 * Minimal cases of orders and resends that src/sync can easily get wrong, of the kind the
 * fault harness and the property tests reach by chance: each names the rule it guards.
 */

import { expect, it } from 'vitest';
import {
  bookEntity,
  classEntity,
  entityByName,
  seriesEntity,
  subjectEntity,
} from '../../src/contract/entities';
import { mutate } from '../../src/db/mutate';
import { resolveId } from '../../src/db/resolve';
import { pull } from '../../src/sync/pull/pull';
import { referencedIds } from '../helpers/entry-requests';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const setup = (legacy: boolean) => fixtures.proxied({ legacy });

it('rules 1 and 3 (legacy): a 503 on the refetch that learns a new id still gets the children sent', async () => {
  const { proxy, ctx } = await setup(true);
  const cls = await mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: 'Class 7' } });
  const subject = await mutate(ctx.db, {
    op: 'add',
    entity: subjectEntity,
    values: { subject_name: 'Maths', subject_content: '<p>m</p>' },
  });
  await mutate(ctx.db, {
    op: 'add',
    entity: seriesEntity,
    values: { class_id: cls.key, subject_id: subject.key, series_name: 'Maths 7' },
  });
  // The add itself succeeds; only the list read that follows it (learn-id.ts) fails, once.
  proxy.failNext(/^GET \S*fetchclasses\.php/, { status: 503, retryAfter: 0 });
  await drain(ctx);

  // The class add must leave the outbox with its server id although learning it failed once;
  // otherwise the series is failed as an orphan ('It refers to a record the server has not confirmed').
  expect(await ctx.db.outbox.toArray()).toEqual([]);
  const listed = await ctx.api.request(seriesEntity.api.list, { method: 'GET' });
  const series = listed.kind === 'reply' ? (listed.body.series as Record<string, unknown>[]) : [];
  expect(series.map((s) => s.series_name)).toEqual(['Maths 7']);
});

it('rules 2 and 5: resending an edit whose reply was lost is no conflict when it names a parent made offline', async () => {
  const { proxy, ctx } = await setup(false);
  // On the server: a class, a subject, a series and a book in it, pulled to this device.
  const { seriesId, bookId } = await seedBookInSeries(ctx);
  const { class_id: classId, subject_id: subjectId } = (await ctx.db.rows(seriesEntity).get(seriesId))!;

  // Offline: a new series, and the book moved into it (its temporary id in the edit).
  const second = await mutate(ctx.db, {
    op: 'add',
    entity: seriesEntity,
    values: { class_id: String(classId), subject_id: String(subjectId), series_name: 'Second' },
  });
  await mutate(ctx.db, {
    op: 'update',
    entity: bookEntity,
    key: bookId,
    values: { series_id: second.key },
  });
  // The server applies the edit, the reply is lost; the resend must be answered as done.
  proxy.dropRepliesTo(/updatebooks\.php/);
  await drain(ctx);

  // A resend that compared the payload's temporary series id with the server's id would see
  // "changed here and there to different values" and hold the entry as a conflict.
  expect(await ctx.db.outbox.toArray()).toEqual([]);
});

async function seriesOnServer(ctx: Awaited<ReturnType<typeof setup>>['ctx']) {
  const listed = await ctx.api.request(seriesEntity.api.list, { method: 'GET' });
  return listed.kind === 'reply' ? (listed.body.series as Record<string, unknown>[]) : [];
}

async function seedSeries(ctx: Awaited<ReturnType<typeof setup>>['ctx']) {
  const cls = await mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: 'Old class' } });
  const subject = await mutate(ctx.db, {
    op: 'add',
    entity: subjectEntity,
    values: { subject_name: 'Art', subject_content: '<p>a</p>' },
  });
  const series = await mutate(ctx.db, {
    op: 'add',
    entity: seriesEntity,
    values: { class_id: cls.key, subject_id: subject.key, series_name: 'Colours' },
  });
  await drain(ctx);
  return { classId: await resolveId(ctx.db, cls.key), seriesId: await resolveId(ctx.db, series.key) };
}

/** seedSeries plus one book in the series, on the server and pulled to this device. */
async function seedBookInSeries(ctx: Awaited<ReturnType<typeof setup>>['ctx']) {
  const seeded = await seedSeries(ctx);
  const series = (await ctx.db.rows(seriesEntity).get(seeded.seriesId))!;
  const book = await mutate(ctx.db, {
    op: 'add',
    entity: bookEntity,
    values: {
      class_id: String(series.class_id),
      subject_id: String(series.subject_id),
      series_id: seeded.seriesId,
      book_name: 'Only book',
      book_code: 'OB',
    },
  });
  await drain(ctx);
  expect((await pull(ctx)).ok).toBe(true);
  return { ...seeded, bookId: await resolveId(ctx.db, book.key) };
}

it('rule 3: a second edit naming a class added after the first edit does not jump ahead of that add', async () => {
  // Edit a series, add a class, move the series into it. Folding the move into the first edit
  // would make that edit name a record added after it.
  const { ctx } = await setup(false);
  const { seriesId } = await seedSeries(ctx);
  await mutate(ctx.db, {
    op: 'update',
    entity: seriesEntity,
    key: seriesId,
    values: { series_name: 'Colours 2' },
  });
  const fresh = await mutate(ctx.db, { op: 'add', entity: classEntity, values: { class_name: 'New class' } });
  await mutate(ctx.db, {
    op: 'update',
    entity: seriesEntity,
    key: seriesId,
    values: { class_id: fresh.key },
  });
  await drain(ctx);
  expect(await ctx.db.outbox.toArray()).toEqual([]);
  const [series] = await seriesOnServer(ctx);
  expect(series).toMatchObject({ series_name: 'Colours 2', class_name: 'New class' });
});

it('rule 3: moving a series out of a class reaches the server before deleting that class', async () => {
  // An edit that held only its new parent would let the delete overtake the move, and the
  // server refuses to delete a class still used (409).
  const { ctx } = await setup(false);
  const { classId, seriesId } = await seedSeries(ctx);
  const other = await mutate(ctx.db, {
    op: 'add',
    entity: classEntity,
    values: { class_name: 'Other class' },
  });
  await drain(ctx);
  await mutate(ctx.db, {
    op: 'update',
    entity: seriesEntity,
    key: seriesId,
    values: { class_id: await resolveId(ctx.db, other.key) },
  });
  await mutate(ctx.db, { op: 'delete', entity: classEntity, key: classId });
  await drain(ctx);
  expect(await ctx.db.outbox.toArray()).toEqual([]);
  expect((await seriesOnServer(ctx))[0]).toMatchObject({ class_name: 'Other class' });
  const classes = await ctx.api.request(classEntity.api.list, { method: 'GET' });
  expect(
    classes.kind === 'reply' && (classes.body.classes as { class_name: string }[]).map((c) => c.class_name),
  ).toEqual(['Other class']);
});

it('rule 3: deleting a book and then its series reaches the server in that order', async () => {
  // Deletes that held only their own record would let the series delete overtake the book
  // delete, and the server refuses to delete a series still used (409).
  const { ctx } = await setup(true);
  const { seriesId, bookId } = await seedBookInSeries(ctx);
  await mutate(ctx.db, { op: 'delete', entity: bookEntity, key: bookId });
  await mutate(ctx.db, { op: 'delete', entity: seriesEntity, key: seriesId });
  const [bookDelete, seriesDelete] = (await ctx.db.outbox.orderBy('seq').toArray()).map((e) =>
    referencedIds(entityByName(e.entity), e),
  );
  // The series delete shares a record with the earlier book delete, so it waits for it.
  expect(seriesDelete.some((ref) => bookDelete.includes(ref))).toBe(true);
  await drain(ctx);
  expect(await ctx.db.outbox.toArray()).toEqual([]);
  expect(await seriesOnServer(ctx)).toEqual([]);
});

it('rule 3: a book moved to another series, its old series deleted, then the book deleted: all reach the server', async () => {
  // No faults needed. Deleting the book must keep its unsent move: without it the book would
  // still sit in the old series on the server when that series' delete (queued before the
  // book's delete) arrives, and the server would refuse it.
  const { ctx } = await setup(false);
  const { seriesId, bookId } = await seedBookInSeries(ctx);
  const series = (await ctx.db.rows(seriesEntity).get(seriesId))!;

  // Offline: a new series, the book moved into it, the old series deleted, then the book.
  const next = await mutate(ctx.db, {
    op: 'add',
    entity: seriesEntity,
    values: { class_id: String(series.class_id), subject_id: String(series.subject_id), series_name: 'Next' },
  });
  await mutate(ctx.db, { op: 'update', entity: bookEntity, key: bookId, values: { series_id: next.key } });
  await mutate(ctx.db, { op: 'delete', entity: seriesEntity, key: seriesId });
  await mutate(ctx.db, { op: 'delete', entity: bookEntity, key: bookId });
  // The move stays queued: the series delete after it counts on it.
  expect((await ctx.db.outbox.orderBy('seq').toArray()).map((e) => `${e.op} ${e.entity}`)).toEqual([
    'add series',
    'update book',
    'delete series',
    'delete book',
  ]);
  await drain(ctx);
  expect(await ctx.db.outbox.toArray()).toEqual([]);
  expect((await seriesOnServer(ctx)).map((s) => s.series_name)).toEqual(['Next']);
  const books = await ctx.api.request(bookEntity.api.list, { method: 'GET' });
  expect(books.kind === 'reply' && books.body[bookEntity.api.listField]).toEqual([]);
});
