/**
 * The device's half of the roles: the role the server told (sign-in, every pull) is kept per
 * administrator in meta, and every way a change is queued (mutate, bulk actions, CSV import)
 * refuses a change of an entity the role may not change, with the server's words, before
 * anything is written. No role known (a server without roles) is an Owner.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TEXT } from '../../../src/contract/accounts/admins-api';
import { cannotChange } from '../../../src/contract/accounts/roles';
import { classEntity, schoolEntity } from '../../../src/contract/entities';
import { applyBulk } from '../../../src/db/bulk/bulk-changes';
import { queueSlice, startImport } from '../../../src/db/csv/imports';
import type { LocalDb } from '../../../src/db/database';
import { readRoleOf, readSignedInRole, writeRoleOf, writeSignedInUser } from '../../../src/db/meta';
import { mutate, OutsideRoleError } from '../../../src/db/mutate';
import { addMany } from '../../../src/db/mutations/add-many';
import { discardEntry } from '../../../src/db/outbox/discard';
import { gatherQueue } from '../../../src/db/saved-queue/gather-and-load';
import type { ApiClient, ApiOutcome } from '../../../src/sync/api/api-client';
import { signIn } from '../../../src/sync/api/sign-in-requests';
import { classify } from '../../../src/sync/classify';
import { fetchAllLists } from '../../../src/sync/pull/pull-all-fetch';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('roles', (opened) => {
  db = opened;
});

const SCHOOL = { school_id: 's1', school_name: 'Green Valley', status: 'Enabled', books: [] };

async function signedInAs(username: string, role: Parameters<typeof writeRoleOf>[2]) {
  await writeSignedInUser(db, username);
  await writeRoleOf(db, username, role);
}

/** Everything a refused change could have touched. */
const snapshot = async () => ({
  outbox: await db.outbox.toArray(),
  schools: await db.rows(schoolEntity).toArray(),
  classes: await db.rows(classEntity).toArray(),
});

describe('the role on the device', () => {
  it('is Owner when none was ever told (a server without roles), and is kept per administrator', async () => {
    expect(await readSignedInRole(db)).toBe('Owner');
    await signedInAs('edna', 'Editor');
    await writeRoleOf(db, 'vic', 'Viewer');
    expect(await readSignedInRole(db)).toBe('Editor');
    expect(await readRoleOf(db, 'vic')).toBe('Viewer');
    expect(await readRoleOf(db, 'nobody')).toBe('Owner');
  });

  it('comes from the sign-in reply; a reply without one (PHP) makes an Owner', async () => {
    const replying = (body: Record<string, unknown>) =>
      ({
        request: async () => ({ kind: 'reply', status: 200, body, replayed: false }) as ApiOutcome,
      }) as unknown as ApiClient;
    expect(await signIn(replying({ success: true, role: 'School manager' }), 'sam', 'x')).toEqual({
      ok: true,
      role: 'School manager',
    });
    expect(await signIn(replying({ success: true }), 'old', 'x')).toEqual({ ok: true, role: 'Owner' });
    expect(await signIn(replying({ success: true, role: 'Boss' }), 'odd', 'x')).toEqual({
      ok: true,
      role: 'Owner',
    });
    expect(await signIn(replying({ success: false, message: ACCOUNT_TEXT.disabled }), 'gone', 'x')).toEqual({
      ok: false,
      message: ACCOUNT_TEXT.disabled,
      network: false,
    });
  });

  it('is refreshed by the pull of every list, for the administrator signed in', async () => {
    await signedInAs('edna', 'Editor');
    const api = {
      request: async () =>
        ({
          kind: 'reply',
          status: 200,
          body: {
            success: true,
            changes: [],
            reached: 1,
            cursor: '7',
            more: false,
            unknown: [],
            role: 'Viewer',
          },
          replayed: false,
        }) as ApiOutcome,
    } as unknown as ApiClient;
    const queue = { room: async () => true, push: () => undefined };
    expect(await fetchAllLists({ db, api }, [classEntity], queue, 100)).toBe(true);
    expect(await readSignedInRole(db)).toBe('Viewer');
  });
});

describe('a change outside the role', () => {
  it('is refused by mutate with the server’s words, and nothing is written', async () => {
    await db.rows(schoolEntity).put(SCHOOL);
    await signedInAs('edna', 'Editor');
    const before = await snapshot();
    const add = mutate(db, { op: 'add', entity: schoolEntity, values: { school_name: 'New' } });
    await expect(add).rejects.toThrow(OutsideRoleError);
    await expect(add).rejects.toThrow('An Editor cannot change schools.');
    for (const change of [
      { op: 'update', entity: schoolEntity, key: 's1', values: { school_name: 'Renamed' } },
      { op: 'set', entity: schoolEntity, key: 's1', action: 'status', value: 'Disabled' },
      { op: 'relate', entity: schoolEntity, key: 's1', relation: 'books', ids: ['b1'] },
      { op: 'delete', entity: schoolEntity, key: 's1' },
    ] as const)
      await expect(mutate(db, change)).rejects.toThrow(cannotChange('Editor', schoolEntity));
    expect(await snapshot()).toEqual(before);
    // What the role may change goes on as before.
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Grade 1' } });
    expect(await db.outbox.count()).toBe(1);
  });

  it('a Viewer changes nothing; an Owner everything', async () => {
    await signedInAs('vic', 'Viewer');
    await expect(mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'X' } })).rejects.toThrow(
      'A Viewer cannot change classes.',
    );
    expect(await db.outbox.count()).toBe(0);
    await signedInAs('olga', 'Owner');
    await mutate(db, { op: 'add', entity: schoolEntity, values: { school_name: 'Owned' } });
    expect(await db.outbox.count()).toBe(1);
  });

  it('is refused for a bulk action and a bulk add, with nothing written', async () => {
    await db.rows(schoolEntity).put(SCHOOL);
    await signedInAs('sam', 'Viewer');
    const before = await snapshot();
    await expect(
      applyBulk(db, schoolEntity, ['s1'], { op: 'set', action: 'status', value: 'Disabled' }),
    ).rejects.toThrow('A Viewer cannot change schools.');
    await expect(applyBulk(db, schoolEntity, ['s1'], { op: 'delete' })).rejects.toThrow(OutsideRoleError);
    await expect(addMany(db, schoolEntity, [{ school_name: 'A' }, { school_name: 'B' }])).rejects.toThrow(
      OutsideRoleError,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('stops a CSV import before its first row is queued', async () => {
    await signedInAs('edna', 'Editor');
    const rows = [{ line: 2, op: 'add' as const, values: { school_name: 'Imported' } }];
    await startImport(db, {
      id: 'imp',
      entity: 'school',
      hash: 'h',
      fileName: 'schools.csv',
      text: 'School Name\nImported',
      rows: rows as never,
      startedAt: 1,
    });
    await expect(queueSlice(db, 'imp', 10)).rejects.toThrow('An Editor cannot change schools.');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(schoolEntity).count()).toBe(0);
  });
});

describe('a change queued before the role was taken away', () => {
  it('can still be saved to a file and discarded by the administrator who may no longer make it', async () => {
    await signedInAs('edna', 'Owner');
    await mutate(db, { op: 'add', entity: schoolEntity, values: { school_name: 'Before the demotion' } });
    await db.outbox
      .toCollection()
      .modify({ status: 'failed', lastError: cannotChange('Viewer', schoolEntity) });
    await signedInAs('edna', 'Viewer');
    const saved = await gatherQueue(db);
    expect(saved.entries.map((e) => (e.payload as Record<string, unknown>).school_name)).toEqual([
      'Before the demotion',
    ]);
    const [entry] = await db.outbox.toArray();
    expect(await discardEntry(db, entry)).not.toBeNull();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rows(schoolEntity).count()).toBe(0);
  });

  it('fails with the server’s words when the server refuses it (403), kept for Discard or Retry', () => {
    const message = cannotChange('Viewer', schoolEntity);
    expect(
      classify({ kind: 'reply', status: 403, body: { success: false, message }, replayed: false }, 'update'),
    ).toEqual({ kind: 'failed', message, status: 403 });
  });
});
