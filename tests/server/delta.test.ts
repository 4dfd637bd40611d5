/** Delta pull: `since=<cursor>` returns only what changed after the cursor (design brief §4). */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import { signedInSuite } from '../helpers/server';

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
