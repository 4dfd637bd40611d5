/**
 * The list benchmark's seeding page (bench/lists.mjs): writes the schools and 100,000 students
 * into the device's IndexedDB through the app's own write path for pulled rows (`applyPulled`,
 * in pages of 2,000 rows as a paged first sync writes them), so whatever the storage layer keeps
 * beside the rows is built the real way. Served from the app's origin, so the app finds them.
 */
import Dexie from 'dexie';
import { bookEntity, schoolEntity, studentEntity, teacherEntity } from '../src/contract/entities';
import { type LocalDb, storesFor } from '../src/db/database';
import { openLocalDb } from '../src/db/open';
import { applyPulled } from '../src/sync/pull/pull-apply';
import { generate } from './lists-data.mjs';

const PAGE = 2000;

async function seed(options: { schools: number; students: number; dashboard?: boolean }) {
  const db = openLocalDb();
  const { schools, students, teachers, books } = generate(options);
  await applyPulled(db, schoolEntity, { rows: schools, deleted: [], cursor: null });
  // The dashboard's benchmark: books and teachers too (none for the list benchmark).
  if (books.length) await applyPulled(db, bookEntity, { rows: books, deleted: [], cursor: null });
  if (teachers.length) await applyPulled(db, teacherEntity, { rows: teachers, deleted: [], cursor: null });
  const pageMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < students.length; i += PAGE) {
    const t = performance.now();
    await applyPulled(db, studentEntity, { rows: students.slice(i, i + PAGE), deleted: [], cursor: null });
    pageMs.push(performance.now() - t);
  }
  const totalMs = performance.now() - started;
  const cost = await indexCost(db, students.slice(0, PAGE * 5));
  // The raw write floor: the same pages put into a bare object store of a scratch database.
  const floorMs = await rawWriteFloor(students.slice(0, PAGE * 5));
  db.close();
  return { pageMs, totalMs, floorPageMs: floorMs, ...cost };
}

/**
 * What the list index costs a pulled page: pages of 2,000 new rows bulk-put by Dexie into the
 * app's store (the index kept in the same transaction) and into a scratch store with the same
 * table and no index, one after the other; the extra rows are removed afterwards.
 */
async function indexCost(db: LocalDb, sample: Record<string, unknown>[]) {
  const scratch = new Dexie('bench-no-index');
  scratch.version(1).stores({ students: storesFor([studentEntity]).students });
  const indexedPageMs: number[] = [];
  const noIndexPageMs: number[] = [];
  const extra = sample.map((row, i) => ({ ...row, student_id: String(9_000_000 + i) }));
  for (let i = 0; i < extra.length; i += PAGE) {
    const page = extra.slice(i, i + PAGE);
    let t = performance.now();
    await db.rows(studentEntity).bulkPut(page);
    indexedPageMs.push(performance.now() - t);
    t = performance.now();
    await scratch.table('students').bulkPut(page);
    noIndexPageMs.push(performance.now() - t);
  }
  await db.rows(studentEntity).bulkDelete(extra.map((r) => r.student_id));
  scratch.close();
  await Dexie.delete('bench-no-index');
  return { indexedPageMs, noIndexPageMs };
}

/** Milliseconds per page of 2,000 rows put with IndexedDB alone (no Dexie), one transaction each. */
async function rawWriteFloor(rows: Record<string, unknown>[]): Promise<number[]> {
  const name = 'bench-write-floor';
  const idb = await new Promise<IDBDatabase>((done, fail) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('rows', { keyPath: 'student_id' });
    open.onsuccess = () => done(open.result);
    open.onerror = () => fail(open.error);
  });
  const out: number[] = [];
  for (let i = 0; i < rows.length; i += PAGE) {
    const t = performance.now();
    await new Promise<void>((done, fail) => {
      const tx = idb.transaction('rows', 'readwrite');
      const store = tx.objectStore('rows');
      for (const row of rows.slice(i, i + PAGE)) store.put(row);
      tx.oncomplete = () => done();
      tx.onerror = () => fail(tx.error);
    });
    out.push(performance.now() - t);
  }
  idb.close();
  await new Promise((done) => {
    const del = indexedDB.deleteDatabase(name);
    del.onsuccess = del.onerror = done;
  });
  return out;
}

declare global {
  interface Window {
    listsBench: { seed: typeof seed };
  }
}
window.listsBench = { seed };
document.title = 'lists bench ready';
