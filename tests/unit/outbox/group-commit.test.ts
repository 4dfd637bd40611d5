/**
 * Group commit (src/db/outbox/group-commit.ts): writes asked for and then flushed together share one
 * transaction, yet each succeeds or fails on its own, and nobody hears of success before the commit.
 */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { mutate } from '../../../src/db/mutate';
import { groupCommit } from '../../../src/db/outbox/group-commit';
import type { OutboxEntry } from '../../../src/db/outbox/outbox-entry';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('group-commit', (opened) => {
  db = opened;
});

/** The entry as it was written, without the number the outbox gave it. */
const withoutSeq = ({ seq: _, ...entry }: OutboxEntry) => entry;

const addClass = (name: string) =>
  mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });

describe('group commit', () => {
  it('applies confirmations, removals and other writes of one turn in one transaction', async () => {
    const a = await addClass('A');
    const b = await addClass('B');
    const [entryA, entryB] = await db.outbox.orderBy('seq').toArray();
    const commits = groupCommit(db);
    let transactions = 0;
    const original = db.transaction.bind(db);
    (db as unknown as { transaction: unknown }).transaction = (...args: unknown[]) => {
      transactions += 1;
      return (original as (...a: unknown[]) => unknown)(...args);
    };
    const asked = Promise.all([
      commits.confirmAdd({
        entity: 'class',
        tempId: a.key,
        serverId: '41',
        seq: entryA.seq,
      }),
      commits.remove(entryB.seq),
      commits.write(() => db.meta.put({ key: 'probe', value: 1 })),
    ]);
    await commits.flush();
    await asked;
    // One group transaction (the rekey's own joins it).
    expect(transactions).toBe(2);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(classEntity).get('41')).toMatchObject({ class_name: 'A' });
    expect(await db.rows(classEntity).get(a.key)).toBeUndefined();
    expect(await db.idmap.get(a.key)).toMatchObject({ serverId: '41' });
    expect(await db.rows(classEntity).get(b.key)).toMatchObject({ class_name: 'B' });
    expect(await db.meta.get('probe')).toMatchObject({ value: 1 });
  });

  it('a write that fails is reported to its caller alone; the others commit', async () => {
    await addClass('A');
    const [entry] = await db.outbox.toArray();
    const commits = groupCommit(db);
    const asked = Promise.allSettled([
      commits.write(() => db.meta.put({ key: 'before', value: 1 })),
      // The outbox's `id` is unique: adding the same entry again fails.
      commits.write(() => db.outbox.add(withoutSeq(entry))),
      commits.write(() => db.meta.put({ key: 'after', value: 2 })),
    ]);
    await commits.flush();
    const results = await asked;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await db.meta.get('before')).toBeDefined();
    expect(await db.meta.get('after')).toBeDefined();
    expect(await db.outbox.count()).toBe(1);
  });

  it('when the transaction cannot commit, every caller hears of it and nothing is applied', async () => {
    const a = await addClass('A');
    const [entry] = await db.outbox.toArray();
    const commits = groupCommit(db);
    db.close();
    const asked = Promise.allSettled([
      commits.remove(entry.seq),
      commits.confirmAdd({ entity: 'class', tempId: a.key, serverId: '7', seq: entry.seq }),
      commits.write(() => db.meta.put({ key: 'x', value: 1 })),
    ]);
    await commits.flush();
    const results = await asked;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    await db.open();
    expect(await db.outbox.count()).toBe(1);
    expect(await db.idmap.count()).toBe(0);
  });
});
