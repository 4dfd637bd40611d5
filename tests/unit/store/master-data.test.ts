import { beforeEach, describe, expect, it } from 'vitest';
import {
  bookEntity,
  chapterEntity,
  classEntity,
  sectionEntity,
  seriesEntity,
  subjectEntity,
  unitEntity,
} from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { mutate, StillUsedError } from '../../../src/db/mutate';
import { discardEntry } from '../../../src/db/outbox/discard';
import { listRows } from '../../../src/db/queries';
import { dependants, refOptions } from '../../../src/db/reads/parent-options';
import { buildRequest } from '../../helpers/entry-requests';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('master', (opened) => {
  db = opened;
});
beforeEach(async () => {
  await db.rows(classEntity).bulkPut([
    { class_id: '1', class_name: 'Class 1' },
    { class_id: '2', class_name: 'Class 2' },
  ]);
  await db.rows(subjectEntity).bulkPut([
    { subject_id: '1', subject_name: 'English' },
    { subject_id: '2', subject_name: 'Maths' },
  ]);
  await db.rows(seriesEntity).bulkPut([
    { series_id: '1', series_name: 'Reader', class_id: '1', subject_id: '1' },
    { series_id: '2', series_name: 'Numbers', class_id: '2', subject_id: '2' },
  ]);
  await db.rows(bookEntity).bulkPut([
    {
      book_id: '1',
      book_name: 'Reader 1',
      class_id: '1',
      subject_id: '1',
      series_id: '1',
      status: 'Disabled',
    },
  ]);
});

const values = (v: Record<string, string>) => v;

describe('cascading selects from the local store (spec §4)', () => {
  it('subjects follow the class through its series; series follow class and subject', async () => {
    expect(await refOptions(db, sectionEntity, 'subject_id', values({ class_id: '' }), true)).toEqual([]);
    expect(await refOptions(db, sectionEntity, 'subject_id', values({ class_id: '1' }), true)).toEqual([
      { value: '1', label: 'English' },
    ]);
    expect(
      await refOptions(db, sectionEntity, 'series_id', values({ class_id: '2', subject_id: '2' }), true),
    ).toEqual([{ value: '2', label: 'Numbers' }]);
    expect(
      await refOptions(db, sectionEntity, 'series_id', values({ class_id: '1', subject_id: '2' }), true),
    ).toEqual([]);
  });

  it('a form that does not cascade lists every row', async () => {
    expect(await refOptions(db, chapterEntity, 'series_id', values({}), false)).toHaveLength(2);
  });

  it('offers records created offline', async () => {
    const { key } = await mutate(db, {
      op: 'add',
      entity: seriesEntity,
      values: { class_id: '1', subject_id: '1', series_name: 'Offline series' },
    });
    const options = await refOptions(
      db,
      bookEntity,
      'series_id',
      values({ class_id: '1', subject_id: '1' }),
      true,
    );
    expect(options).toContainEqual({ value: key, label: 'Offline series' });
  });

  it('changing a level clears every level below it', () => {
    const fields = unitEntity.form;
    expect(dependants(unitEntity, 'class_id', fields).sort()).toEqual([
      'book_id',
      'section_id',
      'series_id',
      'subject_id',
    ]);
    expect(dependants(unitEntity, 'book_id', fields)).toEqual(['section_id']);
    expect(dependants(bookEntity, 'class_id', bookEntity.form)).toEqual(['series_id']);
  });
});

describe('lists join the parents’ current names', () => {
  it('shows a parent renamed on this device', async () => {
    await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'First class' } });
    const { rows } = await listRows(db, seriesEntity, {});
    expect(rows.find((r) => r.series_id === '1')).toMatchObject({
      class_name: 'First class',
      subject_name: 'English',
    });
  });
});

describe('deleting a parent that children still name', () => {
  it('is refused with the server’s message and changes nothing', async () => {
    await expect(mutate(db, { op: 'delete', entity: classEntity, key: '1' })).rejects.toThrow(StillUsedError);
    await expect(mutate(db, { op: 'delete', entity: classEntity, key: '1' })).rejects.toThrow(
      'This class cannot be deleted: series still belong to it. Delete them first.',
    );
    expect(await db.rows(classEntity).get('1')).toBeDefined();
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('entity actions: the popular toggle', () => {
  it('two toggles fold into one request with the last value', async () => {
    const toggle = (value: string) =>
      mutate(db, { op: 'set', entity: bookEntity, key: '1', action: 'popular', value });
    await toggle('Enabled');
    await toggle('Disabled');
    await toggle('Enabled');
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'set', action: 'popular', payload: { status: 'Enabled' } });
    const request = buildRequest(bookEntity, entries[0], (id) => id);
    expect(request).toEqual({
      path: 'Masterfilter/Book/togglePopular.php',
      options: { method: 'POST', json: { book_id: '1', status: 'Enabled' } },
    });
    expect((await db.rows(bookEntity).get('1'))?.status).toBe('Enabled');
  });

  it('discarding it puts the record back as it was', async () => {
    await mutate(db, { op: 'set', entity: bookEntity, key: '1', action: 'popular', value: 'Enabled' });
    const [entry] = await db.outbox.toArray();
    await discardEntry(db, entry);
    expect((await db.rows(bookEntity).get('1'))?.status).toBe('Disabled');
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('files in queued changes (rule 7)', () => {
  const cover = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'cover.png', { type: 'image/png' });

  it('an offline add keeps the file as a Blob and sends it as multipart', async () => {
    const { key } = await mutate(db, {
      op: 'add',
      entity: bookEntity,
      values: {
        class_id: '1',
        subject_id: '1',
        series_id: '1',
        book_name: 'B',
        book_code: 'C',
        book_cover: cover,
      },
    });
    const row = await db.rows(bookEntity).get(key);
    expect(row?.book_cover).toBeInstanceOf(Blob);
    const [entry] = await db.outbox.toArray();
    const request = buildRequest(bookEntity, entry, (id) => id)!;
    expect(request.path).toBe('Masterfilter/Book/addbooks.php');
    const form = request.options.form!;
    expect(form.get('bookName')).toBe('B');
    expect(form.get('selectedSeries')).toBe('1');
    expect(form.get('activityFolderName')).toBe('');
    const sent = form.get('bookCover') as File;
    expect(sent.type).toBe('image/png');
    expect(sent.size).toBe(4);
    // Chromium keeps the File's name in IndexedDB; fake-indexeddb keeps only a Blob.
    expect(['cover.png', 'bookCover.png']).toContain(sent.name);
  });

  it('an edit without a new file sends no file; Add Chapter without one sends the text null', async () => {
    await db.rows(bookEntity).update('1', { book_cover: 'stored.png' });
    await mutate(db, { op: 'update', entity: bookEntity, key: '1', values: { book_name: 'Reader One' } });
    const [edit] = await db.outbox.toArray();
    const form = buildRequest(bookEntity, edit, (id) => id)!.options.form!;
    expect(form.get('book_id')).toBe('1');
    expect(form.get('bookName')).toBe('Reader One');
    expect(form.has('bookCover')).toBe(false);

    const chapter = await mutate(db, {
      op: 'add',
      entity: chapterEntity,
      values: { class_id: '1', subject_id: '1', series_id: '1', book_id: '1', chapter_title: 'One' },
    });
    const added = (await db.outbox.toArray()).find((e) => e.key === chapter.key)!;
    const chapterForm = buildRequest(chapterEntity, added, (id) => id)!.options.form!;
    expect(chapterForm.get('chapterImage')).toBe('null');
    expect(chapterForm.get('selectedSection')).toBe('');
  });

  it('an update of a section carries the id only in the query string', async () => {
    await db.rows(sectionEntity).put({
      section_id: '5',
      section_name: 'S',
      class_id: '1',
      subject_id: '1',
      series_id: '1',
      book_id: '1',
    });
    await mutate(db, { op: 'update', entity: sectionEntity, key: '5', values: { section_name: 'S2' } });
    const [entry] = await db.outbox.toArray();
    expect(buildRequest(sectionEntity, entry, (id) => id)).toEqual({
      path: 'Masterfilter/Sections/updatesections.php',
      options: {
        method: 'POST',
        query: { section_id: '5' },
        json: {
          selectedClass: '1',
          selectedSubject: '1',
          selectedSeries: '1',
          selectedBook: '1',
          sectionName: 'S2',
        },
      },
    });
  });
});
