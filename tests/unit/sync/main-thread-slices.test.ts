/**
 * A big pulled page never holds the main thread in one task: its rows are handed to the store
 * in slices, only as many a task as its time allows, and the next task waits for the store's
 * answer; a reply's rows are normalised in tasks of a bounded time. The clock is a counter, so
 * what a task does is decided by the tests, not by the machine's speed; a real store shows
 * that every row ends up written exactly once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { classEntity, studentEntity } from '../../../src/contract/entities';
import type { LocalDb, Row } from '../../../src/db/database';
import { NORMALISE_TASK_MS, normaliseRows } from '../../../src/sync/pull/normalise';
import { applyPage, PUT_SLICES, putInSlices } from '../../../src/sync/pull/pull-apply';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('main-thread-slices', (opened) => {
  db = opened;
});
const slices = { ...PUT_SLICES };
const normaliseMs = NORMALISE_TASK_MS.value;
afterEach(() => {
  Object.assign(PUT_SLICES, slices);
  NORMALISE_TASK_MS.value = normaliseMs;
});

const rowsOf = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    class_id: String(i + 1),
    class_name: `Class ${i + 1}`,
    sort_order: 0,
  }));

/**
 * A store whose answers the test gives: each bulkPut is recorded with the task it was made in
 * (a task ends when the code waits for an answer) and answers once `answer` is called.
 */
function heldStore() {
  const calls: { rows: readonly Row[]; task: number; answer: () => void }[] = [];
  let task = 0;
  const table = {
    bulkPut(rows: readonly Row[]) {
      let answer = () => {};
      const answered = new Promise<string>((resolve) => {
        answer = () => {
          task++;
          resolve(String(rows.at(-1)?.class_id));
        };
      });
      calls.push({ rows, task, answer });
      return answered;
    },
  };
  return { calls, table: table as unknown as Parameters<typeof putInSlices>[0] };
}

/** A clock that moves `step` ms each time it is read: each slice handed over costs time. */
const steppingClock = (step: number) => {
  let t = 0;
  return () => {
    t += step;
    return t;
  };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a page of rows is handed to the store in short tasks', () => {
  it('hands over no more slices a task than its time allows, and waits for the first one’s answer', async () => {
    PUT_SLICES.size = 50;
    PUT_SLICES.taskMs = 10;
    const { calls, table } = heldStore();
    const rows = rowsOf(1000);
    // 4 ms a clock read: a task reads it at its start and after each slice, so a slice costs
    // 4 ms; two fit in 10 ms, and a third would pass it.
    const done = putInSlices(table, rows, steppingClock(4));
    await settle();
    expect(calls.map((c) => c.rows.length)).toEqual([50, 50]);
    // Nothing more until the store answers for the task's first slice.
    calls[1].answer();
    await settle();
    expect(calls).toHaveLength(2);
    calls[0].answer();
    await settle();
    expect(calls).toHaveLength(4);
    // The rest, answering each task's first slice in turn.
    for (let i = 2; i < 20; i++) {
      calls[i].answer();
      await settle();
    }
    await done;
    expect(calls).toHaveLength(20);
    const tasks = new Map<number, number>();
    for (const c of calls) tasks.set(c.task, (tasks.get(c.task) ?? 0) + 1);
    expect(Math.max(...tasks.values())).toBeLessThanOrEqual(2);
    expect(calls.flatMap((c) => c.rows)).toEqual(rows);
  });

  it('hands over one slice a task at least, however slow the device', async () => {
    PUT_SLICES.size = 50;
    PUT_SLICES.taskMs = 10;
    const { calls, table } = heldStore();
    const done = putInSlices(table, rowsOf(120), steppingClock(100));
    for (let i = 0; i < 3; i++) {
      await settle();
      expect(calls).toHaveLength(i + 1);
      calls[i].answer();
    }
    await done;
    expect(calls.map((c) => c.rows.length)).toEqual([50, 50, 20]);
  });

  it('writes every row of a big page exactly once, in a real store', async () => {
    PUT_SLICES.taskMs = 0;
    const rows = rowsOf(1234);
    await applyPage(db, classEntity, { rows, deleted: [], cursor: '1234' });
    const stored = await db.rows(classEntity).toArray();
    expect(stored).toHaveLength(1234);
    expect(new Set(stored.map((r) => r.class_id)).size).toBe(1234);
    expect((await db.rows(classEntity).get('777'))?.class_name).toBe('Class 777');
  });
});

describe('a reply’s rows are normalised in short tasks', () => {
  it('lets other tasks run between its parts, and gives every row', async () => {
    NORMALISE_TASK_MS.value = 10;
    const raws = Array.from({ length: 20_000 }, (_, i) => ({
      student_id: i + 1,
      student_name: `Pupil ${i}`,
    }));
    // A timer set before normalising starts fires before it ends only if the work was split.
    let timerFired = false;
    setTimeout(() => {
      timerFired = true;
    }, 0);
    const seen: boolean[] = [];
    const clock = steppingClock(1);
    const rows = await normaliseRows(studentEntity, raws, () => {
      seen.push(timerFired);
      return clock();
    });
    expect(seen[0]).toBe(false);
    expect(seen.at(-1)).toBe(true);
    expect(rows).toHaveLength(20_000);
    expect(rows[41]).toEqual({ student_id: '42', student_name: 'Pupil 41' });
  });

  it('leaves out rows without a key', async () => {
    const rows = await normaliseRows(studentEntity, [{ student_id: 5 }, { student_name: 'No id' }]);
    expect(rows).toEqual([{ student_id: '5' }]);
  });
});
