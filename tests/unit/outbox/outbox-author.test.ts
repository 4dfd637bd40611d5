/**
 * Queued changes belong to the administrator who made them. mutate stamps each
 * entry with the administrator signed in on the device (meta, read in its transaction) and
 * folds only into their own entries; the plan holds another administrator's entries (and what
 * waits behind them); the queue view says whose each change is and why others' wait.
 */
import { describe, expect, it } from 'vitest';
import { classEntity, seriesEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { writeSignedInUser } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { belongsTo, type OutboxEntry } from '../../../src/db/outbox/outbox-entry';
import { loadIdResolver } from '../../../src/db/resolve';
import { planQueue } from '../../../src/sync/plan';
import { QueueState } from '../../../src/sync/queue-state';
import { heldText, queueView } from '../../../src/sync/queue-view';
import { emptyReport, finishReport } from '../../../src/sync/replay-report';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('author', (opened) => {
  db = opened;
});

const addClass = (name: string) =>
  mutate(db, { op: 'add', entity: classEntity, values: { class_name: name } });
const entries = () => db.outbox.orderBy('seq').toArray();
const plan = async (user: string | null) =>
  planQueue(await entries(), await loadIdResolver(db), Date.now(), Infinity, user);

describe('stamping', () => {
  it('stamps each entry with the administrator signed in; none recorded: no author', async () => {
    await addClass('Before anyone');
    await writeSignedInUser(db, 'asha');
    await addClass('By Asha');
    await writeSignedInUser(db, 'ben');
    await addClass('By Ben');
    expect((await entries()).map((e) => [e.payload.class_name, e.author])).toEqual([
      ['Before anyone', undefined],
      ['By Asha', 'asha'],
      ['By Ben', 'ben'],
    ]);
  });

  it('an edit folds into its author’s own unsent add, never into another administrator’s', async () => {
    await writeSignedInUser(db, 'asha');
    const { key } = await addClass('Asha’s class');
    await mutate(db, {
      op: 'update',
      entity: classEntity,
      key,
      values: { class_name: 'Asha’s class, renamed' },
    });
    expect(await entries()).toHaveLength(1);

    await writeSignedInUser(db, 'ben');
    await mutate(db, { op: 'update', entity: classEntity, key, values: { class_name: 'Ben’s name for it' } });
    const [asha, ben] = await entries();
    expect(asha).toMatchObject({
      op: 'add',
      author: 'asha',
      payload: { class_name: 'Asha’s class, renamed' },
    });
    expect(ben).toMatchObject({
      op: 'update',
      author: 'ben',
      key,
      payload: { class_name: 'Ben’s name for it' },
    });
  });

  it('a delete does not cancel another administrator’s unsent add: it is queued after it', async () => {
    await writeSignedInUser(db, 'asha');
    const { key } = await addClass('Asha’s class');
    await writeSignedInUser(db, 'ben');
    const result = await mutate(db, { op: 'delete', entity: classEntity, key });
    expect(result.cancelled).toBe(false);
    expect((await entries()).map((e) => [e.op, e.author])).toEqual([
      ['add', 'asha'],
      ['delete', 'ben'],
    ]);
    // The same by the author: both go, nothing is sent.
    await writeSignedInUser(db, 'asha');
    const own = await addClass('Asha’s second');
    expect((await mutate(db, { op: 'delete', entity: classEntity, key: own.key })).cancelled).toBe(true);
  });

  it('entries without an author belong to whoever signs in', () => {
    expect(belongsTo({}, 'ben')).toBe(true);
    expect(belongsTo({}, null)).toBe(true);
    expect(belongsTo({ author: 'asha' }, 'asha')).toBe(true);
    expect(belongsTo({ author: 'asha' }, 'ben')).toBe(false);
    expect(belongsTo({ author: 'asha' }, null)).toBe(false);
  });
});

describe('the plan sends the signed-in administrator’s entries only', () => {
  it('holds another administrator’s entries and those waiting behind them; sends the rest', async () => {
    await addClass('Legacy');
    await writeSignedInUser(db, 'asha');
    const asha = await addClass('Asha’s class');
    await mutate(db, {
      op: 'add',
      entity: seriesEntity,
      values: { class_id: asha.key, subject_id: '1', series_name: 'In Asha’s class' },
    });
    await writeSignedInUser(db, 'ben');
    await addClass('Ben’s class');
    // Ben edits a class Asha created offline: it waits behind her add.
    await mutate(db, {
      op: 'update',
      entity: classEntity,
      key: asha.key,
      values: { class_name: 'Ben renamed it' },
    });
    const all = await entries();
    const name = (e: OutboxEntry) =>
      `${e.op} ${e.payload.class_name ?? e.payload.series_name} (${e.author ?? '-'})`;

    const forBen = await plan('ben');
    expect(forBen.ready.map(name)).toEqual(['add Legacy (-)', 'add Ben’s class (ben)']);
    expect([...forBen.heldFor.values()]).toEqual(['asha', 'asha']);
    expect(all.filter((e) => forBen.onHold.has(e.seq)).map(name)).toEqual([
      'add Asha’s class (asha)',
      'add In Asha’s class (asha)',
      'update Ben renamed it (ben)',
    ]);
    expect(forBen.orphans).toEqual([]);

    const forAsha = await plan('asha');
    expect(forAsha.ready.map(name)).toEqual(['add Legacy (-)', 'add Asha’s class (asha)']);
    expect([...forAsha.heldFor.values()]).toEqual(['ben', 'ben']);

    // Signed out: only entries without an author may go; without a user given, every one.
    expect((await plan(null)).ready.map(name)).toEqual(['add Legacy (-)']);
    const unfiltered = planQueue(all, await loadIdResolver(db), Date.now());
    expect(unfiltered.heldFor.size).toBe(0);
  });

  it('the report counts held entries apart, so nothing retries them', async () => {
    await writeSignedInUser(db, 'asha');
    await addClass('Asha’s class');
    await writeSignedInUser(db, 'ben');
    await addClass('Ben’s class');
    const held = (await plan('ben')).onHold;
    const report = await finishReport(db, emptyReport(), held);
    expect(report).toMatchObject({ waiting: 1, held: 1 });
  });
});

describe('the queue view says whose a change is', () => {
  it('author on every item; another administrator’s change says it waits for them', async () => {
    await addClass('Legacy');
    await writeSignedInUser(db, 'asha');
    const asha = await addClass('Asha’s class');
    await writeSignedInUser(db, 'ben');
    await mutate(db, {
      op: 'update',
      entity: classEntity,
      key: asha.key,
      values: { class_name: 'Ben renamed it' },
    });
    const view = queueView(await entries(), await loadIdResolver(db), Date.now(), 'ben');
    expect(view.map((i) => [i.record, i.author, i.heldFor])).toEqual([
      ['Class “Legacy”', null, null],
      ['Class “Asha’s class”', 'asha', heldText('asha')],
      ['Class “Ben renamed it”', 'ben', null],
    ]);
    expect(view[2].waitsFor).toBe('Waits for: Add Class “Asha’s class” (made by asha)');
    expect(heldText('asha')).toContain('sent when asha signs in');
  });
});

describe('a claim checks the run’s administrator is still the one signed in', () => {
  it('claims nothing after a sign-out or another sign-in during the run, and leaves the entries as they were', async () => {
    await writeSignedInUser(db, 'asha');
    await addClass('Asha’s class');
    const state = await QueueState.load(db);
    const ready = (await plan('asha')).ready;
    // The run planned for Asha; she signs out (offline: her server session may still be valid).
    await writeSignedInUser(db, null);
    expect(await state.claim(db, ready, 'asha')).toEqual([]);
    await writeSignedInUser(db, 'ben');
    expect(await state.claim(db, ready, 'asha')).toEqual([]);
    expect(await entries()).toMatchObject([{ status: 'pending', attempts: 0, author: 'asha' }]);
    // Signed in again, the same claim goes through.
    await writeSignedInUser(db, 'asha');
    expect((await state.claim(db, ready, 'asha')).map((e) => e.status)).toEqual(['sending']);
  });
});
