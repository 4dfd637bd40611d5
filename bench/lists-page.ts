/**
 * The list benchmark's seeding page (bench/lists.mjs): writes the schools and 100,000 students
 * into the device's IndexedDB through the app's own write path for pulled rows (`applyPulled`,
 * in pages of 2,000 rows as a paged first sync writes them), so whatever the storage layer keeps
 * beside the rows is built the real way. Served from the app's origin, so the app finds them.
 */
import Dexie from 'dexie';
import { schoolEntity, studentEntity } from '../src/contract/entities';
import { storesFor } from '../src/db/database';
import { openLocalDb } from '../src/db/open';
import { applyPulled } from '../src/sync/pull-apply';
import { generate } from './lists-data.mjs';

const PAGE = 2000;

async function seed(options: { schools: number; students: number }) {
  const db = openLocalDb();
  const { schools, students } = generate(options);
  await applyPulled(db, schoolEntity, { rows: schools, deleted: [], cursor: null });
  const pageMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < students.length; i += PAGE) {
    const t = performance.now();
    await applyPulled(db, studentEntity, { rows: students.slice(i, i + PAGE), deleted: [], cursor: null });
    pageMs.push(performance.now() - t);
  }
  const totalMs = performance.now() - started;
  // The raw write floor: the same pages put into a bare object store of a scratch database;
  // and put by Dexie into a scratch store with the same table but no list index.
  const sample = students.slice(0, PAGE * 5);
  const floorMs = await rawWriteFloor(sample);
  const noIndexMs = await dexieWithoutIndex(sample);
  db.close();
  return { pageMs, totalMs, floorPageMs: floorMs, noIndexPageMs: noIndexMs };
}

/** Milliseconds per page of 2,000 rows bulk-put by Dexie into the students table of a store without the list index. */
async function dexieWithoutIndex(rows: Record<string, unknown>[]): Promise<number[]> {
  const scratch = new Dexie('bench-no-index');
  scratch.version(1).stores({ students: storesFor([studentEntity]).students });
  const out: number[] = [];
  for (let i = 0; i < rows.length; i += PAGE) {
    const t = performance.now();
    await scratch.table('students').bulkPut(rows.slice(i, i + PAGE));
    out.push(performance.now() - t);
  }
  scratch.close();
  await Dexie.delete('bench-no-index');
  return out;
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
