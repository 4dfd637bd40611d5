/**
 * Which rows a Dexie `storagemutated` event says were written (src/db/mutated-tables.ts), as
 * this context hears its own writes and as another tab's reach it (a structured copy through
 * Dexie's BroadcastChannel): the keys where the event has them, "not known" where it names a
 * range (a clear, a write of 50 rows or more).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { describe, expect, it } from 'vitest';
import { studentEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import {
  addWrittenKeys,
  followWrites,
  mutatedKeys,
  mutatedTables,
  type WrittenKeys,
} from '../../../src/db/mutated-tables';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('mutated-tables', (opened) => {
  db = opened;
});

/** The parts of the events fired while `write` runs. */
async function partsOf(write: () => Promise<unknown>): Promise<ObservabilitySet[]> {
  const heard: ObservabilitySet[] = [];
  const listen = (parts: ObservabilitySet) => heard.push(parts);
  Dexie.on('storagemutated', listen);
  try {
    await write();
  } finally {
    Dexie.on('storagemutated').unsubscribe(listen);
  }
  return heard;
}

const keysOf = (events: ObservabilitySet[]) => {
  const all: WrittenKeys = new Map();
  for (const parts of events) addWrittenKeys(all, mutatedKeys(db, parts));
  return all;
};

describe('the rows an event says were written', () => {
  it('are the keys put, updated and deleted, here and in a copy from another tab', async () => {
    const students = db.rows(studentEntity);
    const events = await partsOf(async () => {
      await students.bulkPut([
        { student_id: '1', student_name: 'A' },
        { student_id: '2', student_name: 'B' },
      ]);
      await students.update('1', { status: 'Disabled' });
      await students.delete('2');
    });
    const table = studentEntity.table;
    expect(keysOf(events).get(table)?.sort()).toEqual(['1', '1', '2', '2']);
    // Another tab's event arrives as a structured copy: plain trees, no RangeSet.
    const copied = keysOf(events.map((parts) => structuredClone(parts)));
    expect(copied.get(table)?.sort()).toEqual(['1', '1', '2', '2']);
  });

  it('are not known (null) after a write of 50 rows or more and after a clear', async () => {
    const students = db.rows(studentEntity);
    const table = studentEntity.table;
    const many = Array.from({ length: 60 }, (_, i) => ({ student_id: String(i), student_name: `S${i}` }));
    expect(keysOf(await partsOf(() => students.bulkPut(many))).get(table)).toBeNull();
    expect(keysOf(await partsOf(() => students.clear())).get(table)).toBeNull();
    // A range wins over keys heard in the same turn.
    const both: WrittenKeys = new Map([[table, ['1']]]);
    addWrittenKeys(both, new Map([[table, null]]));
    expect(both.get(table)).toBeNull();
  });

  it('leave out a table written nothing (a pull with no news deletes no rows)', async () => {
    const students = db.rows(studentEntity);
    const table = studentEntity.table;
    const events = await partsOf(() =>
      db.transaction('rw', [students, db.meta], async () => {
        await students.bulkDelete([]);
        await students.bulkPut([]);
        await db.meta.put({ key: 'cursor', value: 'c1' });
      }),
    );
    // Dexie names the table (empty ranges): it is no write of rows.
    expect(events.some((parts) => Object.keys(parts).some((p) => p.includes(`/${table}/`)))).toBe(true);
    for (const copy of [events, events.map((parts) => structuredClone(parts))]) {
      expect([...mutatedTables(db, Object.assign({}, ...copy))]).toEqual(['meta']);
      expect(keysOf(copy).has(table)).toBe(false);
    }
    // One row written among them: the table is named again.
    const one = await partsOf(() =>
      db.transaction('rw', students, async () => {
        await students.bulkDelete([]);
        await students.put({ student_id: '3', student_name: 'C' });
      }),
    );
    expect(keysOf(one).get(table)).toEqual(['3']);
  });

  it('are told once after the turn of a transaction’s writes, with their tables', async () => {
    const told: [string[], WrittenKeys][] = [];
    const stop = followWrites(db, (tables, keys) => told.push([[...tables], keys]));
    try {
      const students = db.rows(studentEntity);
      // Two writes in one transaction (a save's row and its outbox entry are written so).
      await db.transaction('rw', students, () =>
        Promise.all([
          students.put({ student_id: '7', student_name: 'A' }),
          students.put({ student_id: '8', student_name: 'B' }),
        ]),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      const table = studentEntity.table;
      expect(told.map(([tables]) => tables.includes(table))).toEqual([true]);
      expect(told[0][1].get(table)?.sort()).toEqual(['7', '8']);
    } finally {
      stop();
    }
  });
});
