/**
 * Pull's rule (design brief §2): a row with a change in the outbox is never overwritten or
 * removed by what the server sends, by a delta or by a whole list; rows without one follow
 * the server.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { classEntity } from '../../src/contract/entities';
import type { LocalDb } from '../../src/db/database';
import { readCursor } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import { applyPage, applyPulled } from '../../src/sync/pull-apply';
import { freshLocalDbEach } from '../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('pull-apply', (opened) => {
  db = opened;
});
beforeEach(async () => {
  await db.rows(classEntity).bulkPut([
    { class_id: '1', class_name: 'One', sort_order: 0 },
    { class_id: '2', class_name: 'Two', sort_order: 0 },
    { class_id: '3', class_name: 'Three', sort_order: 0 },
  ]);
});

const name = async (id: string) => (await db.rows(classEntity).get(id))?.class_name;

describe('a pulled row never overwrites a queued change', () => {
  it('a delta: the edited row keeps the edit, the others take the server values and deletions', async () => {
    await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'One (mine)' } });
    await mutate(db, { op: 'update', entity: classEntity, key: '3', values: { class_name: 'Three (mine)' } });
    await applyPulled(db, classEntity, {
      rows: [
        { class_id: '1', class_name: 'One (theirs)', sort_order: 0 },
        { class_id: '2', class_name: 'Two (theirs)', sort_order: 0 },
      ],
      deleted: ['3'],
      cursor: '42',
    });
    expect(await name('1')).toBe('One (mine)');
    expect(await name('2')).toBe('Two (theirs)');
    // Deleted on the server but edited here: the edit's entry decides (it will fail with a reason).
    expect(await name('3')).toBe('Three (mine)');
    expect(await readCursor(db, classEntity.table)).toBe('42');
  });

  it('a whole list: rows the server no longer has go, unless queued; records made here stay', async () => {
    const added = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Made here' } });
    await mutate(db, { op: 'delete', entity: classEntity, key: '2' });
    await mutate(db, { op: 'update', entity: classEntity, key: '3', values: { class_name: 'Three (mine)' } });
    await applyPulled(db, classEntity, {
      rows: [{ class_id: '3', class_name: 'Three (theirs)', sort_order: 0 }],
      deleted: 'all-others',
      cursor: null,
    });
    expect(await name('1')).toBeUndefined();
    expect(await name(added.key)).toBe('Made here');
    expect(await name('3')).toBe('Three (mine)');
    // The queued delete's row stays gone: the server still has it, but the delete is on its way.
    expect(await name('2')).toBeUndefined();
  });

  it('once the change has left the outbox, the next pull brings the server values', async () => {
    await mutate(db, { op: 'update', entity: classEntity, key: '1', values: { class_name: 'One (mine)' } });
    await db.outbox.clear();
    await applyPulled(db, classEntity, {
      rows: [{ class_id: '1', class_name: 'One (server)', sort_order: 0 }],
      deleted: [],
      cursor: '7',
    });
    expect(await name('1')).toBe('One (server)');
  });
});

describe('a delta page is written only over the cursor it was asked from', () => {
  const row = (id: string, name: string) => ({ class_id: id, class_name: name, sort_order: 0 });

  it('from another cursor (a discard reset it, or the page before was not written): nothing is written', async () => {
    await applyPulled(db, classEntity, { rows: [], deleted: [], cursor: '42' });
    const late = { rows: [row('1', 'One (late)')], deleted: ['2'], cursor: '50' };
    expect(await applyPage(db, classEntity, { ...late, since: '41' })).toBe(false);
    expect(await name('1')).toBe('One');
    expect(await name('2')).toBe('Two');
    expect(await readCursor(db, classEntity.table)).toBe('42');

    expect(await applyPage(db, classEntity, { ...late, since: '42' })).toBe(true);
    expect(await name('1')).toBe('One (late)');
    expect(await name('2')).toBeUndefined();
    expect(await readCursor(db, classEntity.table)).toBe('50');
  });

  it('a page opened behind one that fails writes nothing, so a later pull resumes exactly', async () => {
    // The pull opens page k+1's transaction while page k's is still running (pull.ts).
    const failing = applyPage(db, classEntity, {
      // A value that cannot be stored: the put fails and the page's transaction aborts.
      rows: [{ ...row('4', 'Four'), broken: () => 0 }],
      deleted: [],
      cursor: 'a',
      since: '0',
    });
    const behind = applyPage(db, classEntity, {
      rows: [row('5', 'Five')],
      deleted: [],
      cursor: 'b',
      since: 'a',
    });
    await expect(failing).rejects.toThrow();
    expect(await behind).toBe(false);
    expect(await name('4')).toBeUndefined();
    expect(await name('5')).toBeUndefined();
    expect(await readCursor(db, classEntity.table)).toBeNull();
  });
});
