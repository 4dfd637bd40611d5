/**
 * Bulk actions against the real server over HTTP, through the fault proxy with lost replies.
 * 1,000 students in four bulk actions of 250 (enabled, disabled, given a
 * book, deleted), one change per row (src/db/bulk/bulk-changes.ts), drained together while the replies of
 * a batch carrying each action are lost: each change is applied once (one audit entry per row
 * and action, though the client sent those batches again), our server gets them in batches, and
 * its rows end as the device intended. Undo before sending cancels every entry of a bulk toggle
 * and a bulk delete of 500 each: nothing reaches the server. That each entry is the single
 * action's own request (the PHP endpoint) is checked in tests/unit/store/bulk.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookEntity, studentEntity } from '../../src/contract/entities';
import { applyBulk, type BulkChange, undoBulk } from '../../src/db/bulk/bulk-changes';
import { pull } from '../../src/sync/pull/pull';
import type { SyncContext } from '../../src/sync/replay';
import { startSeededServer } from '../helpers/scale-server';
import type { TestServer } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

// 1,000 rows through a real server, on fake-indexeddb: slow on a loaded machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const fixtures = syncFixtures();
let server: TestServer;
beforeAll(async () => {
  server = await startSeededServer(1000);
});
afterAll(async () => {
  await server?.close();
});

async function client() {
  const proxy = await fixtures.proxy(server);
  const ctx = await fixtures.client(`${proxy.url}/api`);
  await pull(ctx);
  return { proxy, ctx };
}

/** The scale seed's 1,000 students (the demo data's own come first: left out). */
async function seededKeys(ctx: SyncContext): Promise<string[]> {
  const rows = await ctx.db.rows(studentEntity).toArray();
  return rows
    .map((r) => String(r.student_id))
    .sort((a, b) => Number(b) - Number(a))
    .slice(0, 1000);
}

async function lastAudit(): Promise<number> {
  const [row] = await server.query<{ id: string | null }>('SELECT max(id)::text AS id FROM audit_log');
  return Number(row?.id ?? 0);
}

/** Audit entries since `after`, by action and row: one per change the server applied. */
async function appliedSince(after: number) {
  return server.query<{ op: string; record_id: string; n: number }>(
    `SELECT op, record_id, count(*)::int AS n FROM audit_log
     WHERE entity = 'students' AND id > $1 GROUP BY op, record_id`,
    [after],
  );
}

const inList = (keys: readonly string[]) => `student_id IN (${keys.join(',')})`;

describe('bulk actions, exactly once with lost replies', () => {
  it('undo before sending cancels all of them: nothing reaches the server', async () => {
    const { proxy, ctx } = await client();
    const keys = await seededKeys(ctx);
    const before = await server.query('SELECT student_id, status FROM students ORDER BY student_id');
    const mark = await lastAudit();
    const logFrom = proxy.log.length;

    const off = await applyBulk(ctx.db, studentEntity, keys, {
      op: 'set',
      action: 'status',
      value: 'Disabled',
    });
    expect(off.changed).toBeGreaterThan(0);
    const gone = await applyBulk(ctx.db, studentEntity, keys, { op: 'delete' });
    expect(gone.changed).toBe(1000);
    expect(await undoBulk(ctx.db, studentEntity, gone.undo)).toEqual({ undone: 1000, kept: 0 });
    expect(await undoBulk(ctx.db, studentEntity, off.undo)).toEqual({ undone: off.changed, kept: 0 });
    expect(await ctx.db.outbox.count()).toBe(0);
    expect(await ctx.db.rows(studentEntity).where('student_id').anyOf(keys).count()).toBe(1000);

    await drain(ctx);
    expect(proxy.log.slice(logFrom).filter((r) => r.key !== null)).toEqual([]);
    expect(await lastAudit()).toBe(mark);
    expect(await server.query('SELECT student_id, status FROM students ORDER BY student_id')).toEqual(before);
  });

  it('our server: 1,000 students enabled, disabled, given a book, deleted; each change applied once, in batches', async () => {
    const { proxy, ctx } = await client();
    const keys = await seededKeys(ctx);
    const [enable, disable, assign, remove] = [0, 1, 2, 3].map((i) => keys.slice(i * 250, i * 250 + 250));
    const [book] = await ctx.db.rows(bookEntity).limit(1).toArray();
    const bookId = String(book.book_id);
    const mark = await lastAudit();
    const logFrom = proxy.log.length;

    const actions: [readonly string[], BulkChange][] = [
      [enable, { op: 'set', action: 'status', value: 'Enabled' }],
      [disable, { op: 'set', action: 'status', value: 'Disabled' }],
      [assign, { op: 'add-to-set', relation: 'books', ids: [bookId] }],
      [remove, { op: 'delete' }],
    ];
    let changed = 0;
    for (const [rows, change] of actions) {
      const outcome = await applyBulk(ctx.db, studentEntity, rows, change);
      expect(outcome.refused).toEqual([]);
      changed += outcome.changed;
    }
    const entries = await ctx.db.outbox.toArray();
    expect(entries).toHaveLength(changed);
    expect(changed).toBeGreaterThan(500);
    // The set each assigned student should end with: its books and this one.
    const intendedSets = (await ctx.db.rows(studentEntity).bulkGet(assign)).map((r) =>
      [...((r?.books as string[] | undefined) ?? [])].sort(),
    );

    // A batch carrying each kind of change loses its reply after the server committed it.
    proxy.dropRepliesTo(/togglestudentstatus\.php/, 2);
    proxy.dropRepliesTo(/Students\/assignbook\.php/, 1);
    proxy.dropRepliesTo(/deletestudent\.php/, 1);
    await drain(ctx);
    expect(proxy.dropped).toBe(4);
    expect(await ctx.db.outbox.count()).toBe(0);

    // Each change applied once, though the batches whose replies were lost went again.
    const applied = await appliedSince(mark);
    expect(applied.filter((a) => a.n !== 1)).toEqual([]);
    const byOp = { set: 'toggle', relate: 'assign', delete: 'delete' } as Record<string, string>;
    expect(applied.map((a) => `${a.op} ${a.record_id}`).sort()).toEqual(
      entries.map((e) => `${byOp[e.op]} ${e.key}`).sort(),
    );
    const sent = proxy.log.slice(logFrom).filter((r) => r.key !== null);
    expect(new Set(sent.map((r) => r.key)).size).toBe(entries.length);
    expect(sent.length).toBeGreaterThan(entries.length);
    // In batches: many changes per request.
    expect(sent.every((r) => r.batched)).toBe(true);
    expect(new Set(sent.map((r) => r.request)).size).toBeLessThan(sent.length / 20);

    // The server's rows are what the device intended.
    const statuses = async (rows: readonly string[]) =>
      server.query(`SELECT DISTINCT status FROM students WHERE ${inList(rows)}`);
    expect(await statuses(enable)).toEqual([{ status: 'Enabled' }]);
    expect(await statuses(disable)).toEqual([{ status: 'Disabled' }]);
    const sets = await server.query<{ student_id: number; books: number[] | null }>(
      `SELECT s.student_id, array_agg(b.book_id ORDER BY b.book_id::text) FILTER (WHERE b.book_id IS NOT NULL) AS books
       FROM students s LEFT JOIN student_books b USING (student_id)
       WHERE s.${inList(assign)} GROUP BY s.student_id`,
    );
    const serverSets = new Map(sets.map((r) => [String(r.student_id), (r.books ?? []).map(String).sort()]));
    expect(assign.map((k) => serverSets.get(k))).toEqual(intendedSets);
    expect(intendedSets.every((set) => set.includes(bookId))).toBe(true);
    expect(await server.query(`SELECT count(*)::int AS n FROM students WHERE ${inList(remove)}`)).toEqual([
      { n: 0 },
    ]);
  });
});
