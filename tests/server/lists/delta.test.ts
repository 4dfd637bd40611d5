/** Delta pull: `since=<cursor>` returns only what changed after the cursor (design brief §4). */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const P = classEntity.api;
const suite = signedInSuite({ seedDemo: true });

describe('delta pull', () => {
  it('since=0 returns every row, no deletions and a cursor', async () => {
    const { status, body } = await suite.client.get(P.list, { since: 0 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, deleted: [], total: 12 });
    expect(body.classes).toHaveLength(12);
    expect(body.cursor).toMatch(/^[0-9]+$/);
    expect(Number(body.cursor)).toBeGreaterThanOrEqual(12);
  });

  it('after a cursor, returns exactly the rows added, updated and deleted since', async () => {
    const start = (await suite.client.get(P.list, { since: 0 })).body.cursor;
    const quiet = await suite.client.get(P.list, { since: start });
    expect(quiet.body).toMatchObject({ classes: [], deleted: [], cursor: start, total: 0 });

    const { body: added } = await suite.client.post(P.add, { className: 'Delta new' });
    await suite.client.post(P.update, { class_id: 2, className: 'Class 2 renamed', sortOrder: 2 });
    // Class 12 has no demo series under it, so it can be deleted.
    await suite.client.post(P.remove, { class_id: 12 });

    const delta = await suite.client.get(P.list, { since: start });
    expect(delta.body.classes.map((c: { class_id: number }) => c.class_id).sort()).toEqual(
      [2, added.id].sort(),
    );
    expect(delta.body.classes.find((c: { class_id: number }) => c.class_id === 2).class_name).toBe(
      'Class 2 renamed',
    );
    expect(delta.body.deleted).toEqual([12]);
    expect(Number(delta.body.cursor)).toBeGreaterThan(Number(start));

    // Nothing new after the new cursor.
    const after = await suite.client.get(P.list, { since: delta.body.cursor });
    expect(after.body).toMatchObject({ classes: [], deleted: [], cursor: delta.body.cursor });
  });

  it('refuses a cursor that is not a number', async () => {
    expect(await suite.client.get(P.list, { since: 'yesterday' })).toMatchObject({
      status: 400,
      body: { success: false },
    });
  });

  it('leaves plain lists without a cursor', async () => {
    const { body } = await suite.client.get(P.list, { page: 1, limit: 5 });
    expect(body.cursor).toBeUndefined();
    expect(body.deleted).toBeUndefined();
  });
});

describe('delta pull in pages', () => {
  /** Every page from `since`, `limit` changes each, until `more` is false. */
  async function allPages(since: string, limit: number, query: Record<string, string | number> = {}) {
    const pages: {
      classes: { class_id: number; class_name: string; rev: number }[];
      deleted: number[];
      cursor: string;
      more: boolean;
      remaining?: number;
    }[] = [];
    let cursor = since;
    for (let first = true; ; first = false) {
      const { status, body } = await suite.client.get(P.list, {
        since: cursor,
        sinceLimit: limit,
        ...(first ? { sinceCount: 1 } : {}),
        ...query,
      });
      expect(status).toBe(200);
      pages.push(body);
      expect(Number(body.cursor)).toBeGreaterThanOrEqual(Number(cursor));
      cursor = body.cursor;
      if (!body.more) return pages;
    }
  }

  it('partitions the changes: rows and deletions in rev order, each once, none skipped', async () => {
    const start = (await suite.client.get(P.list, { since: 0 })).body.cursor;
    // Adds, then deletions and updates interleaved, so tombstones fall between rows' revs.
    await suite.server.query(
      "INSERT INTO classes (class_name) SELECT 'Paged ' || n FROM generate_series(1, 23) AS n",
    );
    const made = await suite.server.query<{ class_id: number }>(
      "SELECT class_id FROM classes WHERE class_name LIKE 'Paged %' ORDER BY class_id",
    );
    const ids = made.map((r) => r.class_id);
    for (const [i, id] of ids.entries()) {
      if (i % 4 === 0) await suite.server.query('DELETE FROM classes WHERE class_id = $1', [id]);
      else if (i % 4 === 1)
        await suite.server.query(
          "UPDATE classes SET class_name = class_name || ' (renamed)' WHERE class_id = $1",
          [id],
        );
    }
    const deletedIds = ids.filter((_, i) => i % 4 === 0);
    const keptIds = ids.filter((_, i) => i % 4 !== 0);
    const changes = keptIds.length + deletedIds.length;

    const pages = await allPages(start, 5);
    // Pages of at most five changes; all but the last full; the first says how many remain.
    for (const page of pages) expect(page.classes.length + page.deleted.length).toBeLessThanOrEqual(5);
    for (const page of pages.slice(0, -1)) expect(page.classes.length + page.deleted.length).toBe(5);
    expect(pages[0].remaining).toBe(changes - 5);
    expect(pages.slice(0, -1).every((p) => p.more)).toBe(true);
    // Deletions are paged too: more than one page carries some.
    expect(pages.filter((p) => p.deleted.length > 0).length).toBeGreaterThan(1);

    const rows = pages.flatMap((p) => p.classes);
    expect(rows.map((r) => r.class_id).sort((a, b) => a - b)).toEqual(keptIds);
    expect(pages.flatMap((p) => p.deleted).sort((a, b) => a - b)).toEqual(deletedIds);
    // Within and across pages, revs ascend; each page's rows lie at or below its cursor.
    for (const [i, page] of pages.entries()) {
      const floor = i === 0 ? Number(start) : Number(pages[i - 1].cursor);
      for (const r of page.classes) {
        expect(r.rev).toBeGreaterThan(floor);
        expect(r.rev).toBeLessThanOrEqual(Number(page.cursor));
      }
    }
    const renamed = rows.filter((r) => r.class_name.endsWith('(renamed)')).map((r) => r.class_id);
    expect(renamed).toEqual(ids.filter((_, i) => i % 4 === 1));
    // Nothing after the last page's cursor.
    const after = await suite.client.get(P.list, { since: pages.at(-1)!.cursor, sinceCount: 1 });
    expect(after.body).toMatchObject({ classes: [], deleted: [], more: false, remaining: 0 });
  });

  it('the same pages whatever the page size, and a whole delta when it fits', async () => {
    const sizes = [1, 3, 1000];
    const unions = [];
    for (const size of sizes) {
      const pages = await allPages('0', size);
      unions.push({
        rows: pages.flatMap((p) => p.classes.map((r) => r.class_id)).sort((a, b) => a - b),
        deleted: pages.flatMap((p) => p.deleted).sort((a, b) => a - b),
        cursor: pages.at(-1)!.cursor,
      });
      if (size === 1000) expect(pages).toHaveLength(1);
    }
    expect(unions[1]).toEqual(unions[0]);
    expect(unions[2]).toEqual(unions[0]);
  });

  it('caps the page at 5,000 changes and refuses a malformed size or count', async () => {
    const malformed: Record<string, string | number>[] = [
      { sinceLimit: 0 },
      { sinceLimit: -3 },
      { sinceLimit: 'many' },
      { sinceCount: 2 },
    ];
    for (const bad of malformed)
      expect(await suite.client.get(P.list, { since: 0, ...bad })).toMatchObject({
        status: 400,
        body: { success: false },
      });
    const start = (await suite.client.get(P.list, { since: 0 })).body.cursor;
    await suite.server.query(
      "INSERT INTO classes (class_name) SELECT 'Many ' || n FROM generate_series(1, 5003) AS n",
    );
    const asked: Record<string, number>[] = [{ sinceLimit: 1_000_000 }, {}];
    for (const size of asked) {
      const { body } = await suite.client.get(P.list, { since: start, sinceCount: 1, ...size });
      expect(body.classes).toHaveLength(5000);
      expect(body).toMatchObject({ more: true, remaining: 3 });
    }
  });
});
