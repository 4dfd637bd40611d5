/**
 * Import and export on the local store: a checked file queued a slice at a time,
 * each slice with its position in one transaction, so a reload resumes at the first row not
 * queued and queues no row twice; queueing waits while nobody is signed in; delivery counted
 * from the outbox (imported, refused with the server's words, refused rows as CSV); an export
 * read back by the import is all up to date.
 */
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogueSets } from '../../../src/contract/catalogue/entity-catalogue';
import { parseAll } from '../../../src/contract/csv/parse';
import { entities, schoolEntity, studentEntity } from '../../../src/contract/entities';
import { geoPaths } from '../../../src/contract/geography';
import { checkFile, exportCsv, refusedRowsCsv, skippedRows } from '../../../src/db/csv/csv-files';
import { SLICES_STORE } from '../../../src/db/csv/import-slices';
import {
  deliveryOf,
  importedBefore,
  importFile,
  importsOf,
  queueSlice,
  type ReadyRow,
  slicesOfImport,
  startImport,
  unfinishedImport,
} from '../../../src/db/csv/imports';
import { dashboardFigures } from '../../../src/db/dashboard/dashboard-figures';
import { LOCAL_SCHEMA_VERSION, type LocalDb, storesFor } from '../../../src/db/database';
import { patchSyncState, writeSignedInUser } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { openLocalDb } from '../../../src/db/open';
import { writeReference } from '../../../src/db/reference-lists';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('csv-import', (opened) => {
  db = opened;
});
beforeEach(async () => {
  await writeSignedInUser(db, 'admin');
  await writeReference(db, geoPaths.countries(), [{ id: 1, name: 'India', iso2: 'IN' }]);
  await writeReference(db, geoPaths.allStates(), [
    { id: 1, name: 'Maharashtra', iso2: 'MH', country_code: 'IN' },
  ]);
  await db.rows(schoolEntity).put({ school_id: '5', school_name: 'Green Valley', status: 'Enabled' });
});

const HEADER = 'Student Name,Email,Password,Contact Number,Country,State,City,School,Status';
const student = (n: number, extra = '') =>
  `Pupil ${n},pupil${n}@example.com,pw-${n}-secret,98765 4${String(n).padStart(4, '0')},India,Maharashtra,Pune,Green Valley,${extra || 'Enabled'}`;
const file = (count: number) =>
  [HEADER, ...Array.from({ length: count }, (_, i) => student(i + 1, i === 2 ? 'Disabled' : ''))].join('\n');

async function begin(text: string, id = 'import-1') {
  const { check, rows } = await checkFile(db, studentEntity, text);
  await startImport(db, {
    id,
    entity: 'student',
    hash: 'h1',
    fileName: 'pupils.csv',
    text,
    rows,
    startedAt: 1000,
  });
  return check;
}

describe('rows without an ID that name a student by e-mail', () => {
  it('update it or leave it unchanged, in any case of the address and whatever the password; the others add', async () => {
    await db.rows(studentEntity).bulkPut(
      [1, 2].map((n) => ({
        student_id: String(40 + n),
        student_name: `Pupil ${n}`,
        email: `pupil${n}@example.com`,
        contact_no: `98765 4${String(n).padStart(4, '0')}`,
        school_id: '5',
        class_name: '',
        country: 'IN',
        state: 'MH',
        city: 'Pune',
        zipcode: '',
        status: 'Enabled',
      })),
    );
    const text = [
      HEADER,
      student(1).replace('pupil1@', 'PUPIL1@'),
      student(2).replace('Pune', 'Nashik'),
      student(3),
    ].join('\n');
    const { check, rows } = await checkFile(db, studentEntity, text);
    expect(check).toMatchObject({ total: 3, ready: 2, upToDate: 1, matched: { update: 1, unchanged: 1 } });
    expect(rows.map(({ line, op, key, values, matched }) => ({ line, op, key, values, matched }))).toEqual([
      { line: 3, op: 'update', key: '42', values: { city: 'Nashik' }, matched: true },
      {
        line: 4,
        op: 'add',
        key: undefined,
        values: expect.objectContaining({ email: 'pupil3@example.com' }),
        matched: undefined,
      },
    ]);
  });
});

describe('queueing', () => {
  it('queues a slice per transaction and resumes from the first row not queued', async () => {
    const check = await begin(file(7));
    expect(check).toMatchObject({ total: 7, ready: 7, upToDate: 0, problems: [] });
    expect(await queueSlice(db, 'import-1', 3)).toEqual({ queued: 3, total: 7 });
    // A reload here: the import is found unfinished and goes on where it stopped.
    expect((await unfinishedImport(db, 'student'))?.position).toBe(3);
    expect(await queueSlice(db, 'import-1', 3)).toEqual({ queued: 6, total: 7 });
    expect(await queueSlice(db, 'import-1', 3)).toEqual({ queued: 7, total: 7 });
    expect(await unfinishedImport(db, 'student')).toBeUndefined();

    const entries = await db.outbox.toArray();
    // Seven adds, and the third row's Disabled status as its own change after its add.
    expect(entries.map((e) => e.op)).toEqual(['add', 'add', 'add', 'set', 'add', 'add', 'add', 'add']);
    const names = entries.filter((e) => e.op === 'add').map((e) => e.payload.student_name);
    expect(names).toEqual(Array.from({ length: 7 }, (_, i) => `Pupil ${i + 1}`));
    expect(entries[0].payload).toMatchObject({
      school_id: '5',
      country: 'IN',
      state: 'MH',
      email: 'pupil1@example.com',
    });
    expect(await db.rows(studentEntity).count()).toBe(7);
    expect(await importedBefore(db, 'h1')).toBe(1000);
    expect(await importedBefore(db, 'other')).toBeNull();
    // Each slice kept only the entries it queued (the record is rewritten small each slice).
    const seqs = entries.map((e) => e.seq);
    expect(await slicesOfImport(db, 'import-1')).toEqual([
      { import: 'import-1', at: 0, seqs: seqs.slice(0, 4), lines: [2, 3, 4, 4] },
      { import: 'import-1', at: 3, seqs: seqs.slice(4, 7), lines: [5, 6, 7] },
      { import: 'import-1', at: 6, seqs: seqs.slice(7), lines: [8] },
    ]);
    expect(Object.keys((await importsOf(db).get('import-1')) ?? {}).sort()).toEqual(
      [
        'entity',
        'fileName',
        'hash',
        'id',
        'position',
        'queuedAt',
        'skipped',
        'startedAt',
        'state',
        'total',
      ].sort(),
    );
  });

  it("a slice of students (unique e-mails) writes the list index's chunks once, not once a row", async () => {
    await begin([HEADER, ...Array.from({ length: 40 }, (_, i) => student(i + 1))].join('\n'));
    await db.rows(studentEntity).put({ student_id: '77', student_name: 'Held', email: 'held@example.com' });
    const version = async () =>
      ((await db.table('listHeads').get('students')) as { v: number } | undefined)?.v ?? 0;
    const before = await version();
    expect(await queueSlice(db, 'import-1', 40)).toEqual({ queued: 40, total: 40 });
    // Each write of chunks moves the head's version on by one: one bulk write for the slice's rows.
    expect((await version()) - before).toBe(1);
    expect(await db.rows(studentEntity).count()).toBe(41);
    expect((await db.outbox.toArray()).map((e) => e.op)).toEqual(Array(40).fill('add'));
  });

  it('a slice with an e-mail a student already has, in another case, is refused whole at the field', async () => {
    await begin(file(3));
    // Held since the preview (pulled meanwhile): the slice is refused with the device's words.
    await db
      .rows(studentEntity)
      .put({ student_id: '77', student_name: 'Other', email: 'PUPIL2@example.com' });
    await expect(queueSlice(db, 'import-1', 3)).rejects.toThrow('Email is already used by another student');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(studentEntity).count()).toBe(1);
    expect((await importsOf(db).get('import-1'))?.position).toBe(0);
  });

  it('waits while nobody is signed in, queueing nothing', async () => {
    await begin(file(2));
    await writeSignedInUser(db, null);
    expect(await queueSlice(db, 'import-1', 10)).toEqual({ stopped: 'signed-out' });
    expect(await db.outbox.count()).toBe(0);
    await writeSignedInUser(db, 'admin');
    expect(await queueSlice(db, 'import-1', 10)).toEqual({ queued: 2, total: 2 });
  });

  it('a slice that fails queues nothing and keeps the position', async () => {
    await begin(file(3));
    // A row the device refuses (its record is gone from the device meanwhile) aborts the slice.
    const kept = (await importFile(db, 'import-1'))!;
    kept.rows[1] = { ...kept.rows[1], op: 'update', key: 'no-such-student', values: { zipcode: '1' } };
    await db.table('imports').put(kept);
    await expect(queueSlice(db, 'import-1', 3)).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
    expect((await importsOf(db).get('import-1'))?.position).toBe(0);
    expect(await slicesOfImport(db, 'import-1')).toEqual([]);
  });

  it('a change folded into an entry an earlier slice queued is not counted again', async () => {
    await db
      .rows(studentEntity)
      .put({ student_id: '3', student_name: 'Three', school_id: '5', status: 'Enabled' });
    // Student 3 has a change waiting, so each row's edit folds into the one entry.
    await mutate(db, { op: 'update', entity: studentEntity, key: '3', values: { city: 'Pune' } });
    const [waiting] = await db.outbox.toArray();
    await startImport(db, {
      id: 'twice',
      entity: 'student',
      hash: 'h',
      fileName: 'twice.csv',
      text: '',
      rows: [
        { line: 2, op: 'update', key: '3', values: { student_name: 'Drei' } },
        { line: 3, op: 'update', key: '3', values: { city: 'Nashik' } },
      ],
      startedAt: 1,
    });
    await queueSlice(db, 'twice', 1);
    await queueSlice(db, 'twice', 1);
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        seq: waiting.seq,
        payload: expect.objectContaining({ student_name: 'Drei', city: 'Nashik' }),
      }),
    ]);
    expect(await slicesOfImport(db, 'twice')).toEqual([
      { import: 'twice', at: 0, seqs: [waiting.seq], lines: [2] },
    ]);
    const record = (await importsOf(db).get('twice'))!;
    expect(await deliveryOf(db, record)).toMatchObject({ total: 1, delivered: 0 });
  });
});

describe('a device from local schema 8 (an import’s pairs in its record, teachers without a status index)', () => {
  /** A store at schema 8 holding `from`'s data, its import records with their pairs inside. */
  async function asSchema8(from: LocalDb, name: string) {
    const stores = { ...storesFor(entities) };
    delete stores[SLICES_STORE];
    const slices = await slicesOfImport(from, 'import-1');
    const old = new Dexie(name);
    old.version(8).stores(stores);
    await old.open();
    for (const table of from.tables) {
      if (table.name === SLICES_STORE) continue;
      let rows = await table.toArray();
      if (table.name === 'imports')
        rows = rows.map((r) =>
          r.id === 'import-1'
            ? { ...r, seqs: slices.flatMap((s) => s.seqs), lines: slices.flatMap((s) => s.lines) }
            : r.entity === '#file'
              ? r
              : { ...r, seqs: [], lines: [] },
        );
      await old.table(table.name).bulkAdd(rows);
    }
    old.close();
  }

  let upgraded: LocalDb | undefined;
  afterEach(async () => {
    upgraded?.close();
    await upgraded?.delete();
    upgraded = undefined;
  });

  it('the upgrade indexes the teachers kept by status: Pending Approvals counts them', async () => {
    await db.table('teachers').bulkPut([
      { teacher_id: '1', teacher_name: 'A', status: 'Disabled' },
      { teacher_id: '2', teacher_name: 'B', status: 'Enabled' },
      { teacher_id: '3', teacher_name: 'C', status: 'Disabled' },
    ]);
    const name = `csv-import-schema8-${Math.random()}`;
    await asSchema8(db, name);
    upgraded = openLocalDb(name);
    await upgraded.open();
    await patchSyncState(upgraded, { lastSyncedAt: Date.now() });
    const figures = await dashboardFigures(upgraded, {
      teachers: 'teachers',
      books: 'books',
      bookSets: catalogueSets(entities).filter((s) => s.target === 'book'),
    });
    expect(figures).toMatchObject({ teachers: 3, pendingApprovals: 2 });
  });

  it('an import begun at schema 8 keeps its pairs, read as its first slice; it resumes at its first row not queued', async () => {
    await begin(file(7));
    await startImport(db, {
      id: 'empty',
      entity: 'school',
      hash: 'h2',
      fileName: 'none.csv',
      text: '',
      rows: [],
      startedAt: 2000,
    });
    await queueSlice(db, 'import-1', 2);
    await queueSlice(db, 'import-1', 2);
    const before = await db.outbox.toArray();
    const name = `csv-import-schema8-${Math.random()}`;
    await asSchema8(db, name);

    upgraded = openLocalDb(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(LOCAL_SCHEMA_VERSION);
    const record = (await importsOf(upgraded).get('import-1'))!;
    expect(record).toMatchObject({ position: 4, state: 'queueing', total: 7 });
    // The old record keeps its pairs: they are read as its first slice.
    expect(await slicesOfImport(upgraded, 'empty')).toEqual([]);
    expect(await slicesOfImport(upgraded, 'import-1')).toEqual([
      { import: 'import-1', at: 0, seqs: before.map((e) => e.seq), lines: [2, 3, 4, 5, 4] },
    ]);
    expect((await importFile(upgraded, 'import-1'))?.rows).toHaveLength(7);
    expect(await importedBefore(upgraded, 'h1')).toBe(1000);

    // Resumed after the upgrade: rows 5 to 7 once each, and delivery counts every line.
    expect((await unfinishedImport(upgraded, 'student'))?.position).toBe(4);
    expect(await queueSlice(upgraded, 'import-1', 2)).toEqual({ queued: 6, total: 7 });
    expect(await queueSlice(upgraded, 'import-1', 2)).toEqual({ queued: 7, total: 7 });
    const entries = await upgraded.outbox.toArray();
    expect(entries.filter((e) => e.op === 'add').map((e) => e.payload.student_name)).toEqual(
      Array.from({ length: 7 }, (_, i) => `Pupil ${i + 1}`),
    );
    await upgraded.outbox.update(entries[1].seq, { status: 'failed', lastError: 'Email is already used' });
    const done = (await importsOf(upgraded).get('import-1'))!;
    expect(await deliveryOf(upgraded, done)).toEqual({
      total: 7,
      delivered: 1,
      imported: 0,
      refused: [{ line: 3, error: 'Email is already used' }],
      skipped: 0,
    });
  });
});

describe('edits and statuses of rows on the device', () => {
  let peer: LocalDb;
  beforeEach(async () => {
    peer = openLocalDb(`csv-import-peer-${Math.random()}`);
    await peer.open();
  });
  afterEach(async () => {
    peer.close();
    await peer.delete();
  });

  it('queue what one mutate per row queues: same entries, same order, same rows, same lines', async () => {
    // Ten students on the device; student 3 has an unsent edit (the import's edit folds into
    // it), student 4 a sent toggle (the status goes after it), student 5 an unsent toggle
    // (the status cancels it), and an add in the file gets a status of its own.
    const rows: ReadyRow[] = [
      { line: 2, op: 'update', key: '1', values: { student_name: 'One' } },
      { line: 3, op: 'update', key: '2', values: { student_name: 'Two' }, status: 'Disabled' },
      { line: 4, op: 'update', key: '3', values: { city: 'Nashik' } },
      { line: 5, op: 'update', key: '4', values: {}, status: 'Disabled' },
      { line: 6, op: 'update', key: '5', values: {}, status: 'Enabled' },
      { line: 7, op: 'add', values: { student_name: 'New', school_id: '5' }, status: 'Disabled' },
      { line: 8, op: 'update', key: '6', values: { zipcode: '411001' }, status: 'Disabled' },
      { line: 9, op: 'update', key: '7', values: { student_name: 'Seven' } },
      { line: 10, op: 'update', key: '7', values: { city: 'Mumbai' } },
      { line: 11, op: 'update', key: '8', values: {}, status: 'Disabled' },
      // E-mails set in the file: student 9 takes an address student 10 then gives up.
      { line: 12, op: 'update', key: '10', values: { email: 'p10@x.example', city: 'Thane' } },
      { line: 13, op: 'update', key: '9', values: { email: 'TEN@x.example' }, status: 'Disabled' },
    ];
    for (const store of [db, peer]) {
      await writeSignedInUser(store, 'admin');
      await store.rows(studentEntity).bulkPut(
        Array.from({ length: 10 }, (_, i) => ({
          student_id: String(i + 1),
          student_name: `Pupil ${i + 1}`,
          school_id: '5',
          status: 'Enabled',
          city: 'Pune',
          email: i === 9 ? 'ten@x.example' : `p${i + 1}@x.example`,
        })),
      );
      await mutate(store, {
        op: 'update',
        entity: studentEntity,
        key: '3',
        values: { student_name: 'Drei' },
      });
      await mutate(store, {
        op: 'set',
        entity: studentEntity,
        key: '4',
        action: 'status',
        value: 'Disabled',
      });
      const sent = await store.outbox.where('[entity+key]').equals(['student', '4']).first();
      await store.outbox.update(sent?.seq ?? 0, { attempts: 1, status: 'sending' });
      await mutate(store, {
        op: 'set',
        entity: studentEntity,
        key: '5',
        action: 'status',
        value: 'Disabled',
      });
      await startImport(store, {
        id: 'edits',
        entity: 'student',
        hash: 'h',
        fileName: 'edits.csv',
        text: '',
        rows,
        startedAt: 1,
      });
    }
    await queueSlice(db, 'edits', 6);
    await queueSlice(db, 'edits', 6);

    // The path before bulk writes, row by row, on the peer.
    const had = new Set<number>();
    const seqs: number[] = [];
    const lines: number[] = [];
    const note = async (entryId: string | null, line: number) => {
      const [seq] = entryId ? await peer.outbox.where('id').equals(entryId).primaryKeys() : [];
      if (seq !== undefined && !had.has(seq)) {
        had.add(seq);
        seqs.push(seq);
        lines.push(line);
      }
    };
    for (const slice of [rows.slice(0, 6), rows.slice(6)]) {
      const adds = new Map<ReadyRow, string>();
      for (const row of slice.filter((r) => r.op === 'add')) {
        const added = await mutate(peer, { op: 'add', entity: studentEntity, values: row.values });
        adds.set(row, added.key);
        await note(added.entryId, row.line);
      }
      for (const row of slice) {
        const key = adds.get(row) ?? row.key ?? '';
        if (row.op === 'update' && Object.keys(row.values).length)
          await note(
            (await mutate(peer, { op: 'update', entity: studentEntity, key, values: row.values })).entryId,
            row.line,
          );
        if (row.status !== undefined)
          await note(
            (
              await mutate(peer, {
                op: 'set',
                entity: studentEntity,
                key,
                action: 'status',
                value: row.status,
              })
            ).entryId,
            row.line,
          );
      }
    }

    const tempId = async (store: LocalDb) =>
      String(
        (
          await store
            .rows(studentEntity)
            .filter((r) => r.student_name === 'New')
            .first()
        )?.student_id,
      );
    const [mine, theirs] = [await tempId(db), await tempId(peer)];
    const plain = async (store: LocalDb, temp: string) =>
      JSON.parse(
        JSON.stringify({
          entries: (await store.outbox.orderBy('seq').toArray()).map(({ id, createdAt, ...e }) => e),
          rows: await store.rows(studentEntity).toArray(),
        }).replaceAll(temp, 'NEW'),
      );
    expect(await plain(db, mine)).toEqual(await plain(peer, theirs));
    const slices = await slicesOfImport(db, 'edits');
    expect({
      seqs: slices.flatMap((s) => s.seqs),
      lines: slices.flatMap((s) => s.lines),
    }).toEqual({ seqs, lines });
    // Student 3's edit folded into its unsent one; student 5's toggle back cancelled its own.
    expect((await db.outbox.toArray()).filter((e) => e.key === '5')).toEqual([]);
    expect(lines).toContain(4);
  });
});

describe('edits of students (a unique e-mail)', () => {
  it("are written in bulk, the list index's chunks once a slice; an e-mail another student has refuses the slice", async () => {
    await db.rows(studentEntity).bulkPut(
      Array.from({ length: 30 }, (_, i) => ({
        student_id: String(i + 1),
        student_name: `Pupil ${i + 1}`,
        email: `p${i + 1}@x.example`,
        school_id: '5',
        status: 'Enabled',
      })),
    );
    const edits: ReadyRow[] = Array.from({ length: 30 }, (_, i) => ({
      line: i + 2,
      op: 'update',
      key: String(i + 1),
      values: { city: 'Nashik' },
    }));
    const start = (id: string, rows: ReadyRow[]) =>
      startImport(db, { id, entity: 'student', hash: id, fileName: 'e.csv', text: '', rows, startedAt: 1 });
    await start('edits', edits);
    const version = async () => ((await db.table('listHeads').get('students')) as { v: number }).v;
    const before = await version();
    expect(await queueSlice(db, 'edits', 30)).toEqual({ queued: 30, total: 30 });
    expect((await version()) - before).toBe(1);
    expect(await db.outbox.count()).toBe(30);

    await start('clash', [{ line: 2, op: 'update', key: '1', values: { email: 'P2@x.example' } }]);
    await expect(queueSlice(db, 'clash', 10)).rejects.toThrow('Email is already used by another student');
    expect(await db.outbox.count()).toBe(30);
    expect((await db.rows(studentEntity).get('1'))?.email).toBe('p1@x.example');
  });
});

describe('delivery', () => {
  it('counts imported and refused rows and gives the refused ones back with the server’s words', async () => {
    const text = file(4);
    await begin(text);
    await queueSlice(db, 'import-1', 10);
    const record = (await importsOf(db).get('import-1'))!;
    expect(await deliveryOf(db, record)).toMatchObject({ total: 4, delivered: 0, imported: 0 });
    const entries = await db.outbox.toArray();
    // Line 2 confirmed, line 3 refused by the server, lines 4 (add and status) and 5 still waiting.
    await db.outbox.delete(entries[0].seq);
    await db.outbox.update(entries[1].seq, { status: 'failed', lastError: 'Email is already used' });
    expect(await deliveryOf(db, record)).toEqual({
      total: 4,
      delivered: 2,
      imported: 1,
      refused: [{ line: 3, error: 'Email is already used' }],
      skipped: 0,
    });
    for (const e of entries.slice(2)) await db.outbox.delete(e.seq);
    expect(await deliveryOf(db, record)).toMatchObject({ total: 4, delivered: 4, imported: 3 });

    const refused = parseAll(
      refusedRowsCsv((await importFile(db, 'import-1'))!, [{ line: 3, error: 'Email is already used' }]),
    );
    expect(refused.header).toEqual([...HEADER.split(','), 'problem']);
    expect(refused.rows.map((r) => r.cells)).toEqual([[...student(2).split(','), 'Email is already used']]);
  });
});

describe('rows left out at the preview', () => {
  it('are named with the offending value, counted after delivery, and given back with the refused ones', async () => {
    const text = [
      HEADER,
      student(1),
      student(2).replace('pupil2@example.com', 'not-an-email'),
      student(3),
    ].join('\n');
    const { check, rows } = await checkFile(db, studentEntity, text);
    expect(check.problems).toEqual([
      {
        line: 3,
        name: 'Pupil 2',
        field: 'Email',
        value: 'not-an-email',
        problem: 'Email must be a valid e-mail address',
      },
    ]);
    await startImport(db, {
      id: 'i2',
      entity: 'student',
      hash: 'h2',
      fileName: 'pupils.csv',
      text,
      rows,
      skipped: skippedRows(check.problems),
      startedAt: 1,
    });
    await queueSlice(db, 'i2', 10);
    const record = (await importsOf(db).get('i2'))!;
    expect(await deliveryOf(db, record)).toMatchObject({ total: 2, skipped: 1 });
    const entries = await db.outbox.toArray();
    await db.outbox.update(entries[1].seq, { status: 'failed', lastError: 'Email is already used' });
    const { refused } = await deliveryOf(db, record);
    const out = parseAll(refusedRowsCsv((await importFile(db, 'i2'))!, refused));
    expect(out.rows.map((r) => [r.cells[0], r.cells.at(-1)])).toEqual([
      ['Pupil 2', 'Email must be a valid e-mail address'],
      ['Pupil 3', 'Email is already used'],
    ]);
  });
});

describe('export', () => {
  it('an export read back by the import is all up to date and changes nothing', async () => {
    await db.rows(studentEntity).bulkPut(
      Array.from({ length: 30 }, (_, i) => ({
        student_id: String(100 + i),
        student_name: `Élève, "${i}"`,
        email: `e${i}@example.com`,
        contact_no: '12345',
        school_id: '5',
        class_name: '',
        country: 'IN',
        state: 'MH',
        city: 'Pune\nWest',
        zipcode: '',
        status: i % 2 ? 'Enabled' : 'Disabled',
      })),
    );
    const keys = Array.from({ length: 30 }, (_, i) => String(129 - i));
    const text = await exportCsv(db, studentEntity, keys);
    const parsed = parseAll(text);
    // Every field of the Add form in the template's order (no password), then the status.
    expect(parsed.header).toEqual([
      'ID',
      'Student Name',
      'Email',
      'Contact Number',
      'Country',
      'State',
      'City',
      'Zip Code',
      'School',
      'Class',
      'Status',
    ]);
    expect(parsed.rows.map((r) => r.cells[0])).toEqual(keys);
    expect(parsed.rows[0].cells[8]).toBe('Green Valley');
    const { check } = await checkFile(db, studentEntity, text);
    expect(check).toEqual({
      total: 30,
      ready: 0,
      upToDate: 30,
      matched: { update: 0, unchanged: 0 },
      problems: [],
      unknown: [],
    });
  });

  it('writes the same lines from the list index (most of a table) as from the rows (a few of it)', async () => {
    await db.rows(studentEntity).bulkPut(
      Array.from({ length: 40 }, (_, i) => ({
        student_id: String(200 + i),
        student_name: `Pupil ${i}; "the ${i}th"`,
        email: `p${i}@example.com`,
        contact_no: i % 3 ? '+91 12345' : null,
        school_id: '5',
        class_name: '',
        country: 'IN',
        state: i % 2 ? 'MH' : '',
        city: ' Pune',
        zipcode: '',
        status: i % 2 ? 'Enabled' : 'Disabled',
      })),
    );
    await db.rows(studentEntity).update('207', { contact_no: '999 888', status: 'Enabled' });
    const all = Array.from({ length: 40 }, (_, i) => String(239 - i));
    const few = ['231', '207', '200'];
    const whole = parseAll(await exportCsv(db, studentEntity, all)).rows.map((r) => r.cells);
    const some = parseAll(await exportCsv(db, studentEntity, few)).rows.map((r) => r.cells);
    expect(some).toEqual(few.map((key) => whole.find((cells) => cells[0] === key)));
    expect(whole.find((cells) => cells[0] === '207')).toEqual([
      '207',
      'Pupil 7; "the 7th"',
      'p7@example.com',
      '999 888',
      'IN',
      'MH',
      ' Pune',
      '',
      'Green Valley',
      '',
      'Enabled',
    ]);
  });
});
