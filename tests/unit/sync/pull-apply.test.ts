/**
 * Pull's rule (design brief §2): a row with a change in the outbox is never overwritten or
 * removed by what the server sends, by a delta or by a whole list; rows without one follow
 * the server.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { readCursor } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { applyPulled } from '../../../src/sync/pull/pull-apply';
import { freshLocalDbEach } from '../../helpers/local-db';

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
