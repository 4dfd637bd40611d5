/**
 * On the device: unique fields checked before queueing (src/db/mutations/refuse-duplicates.ts) with the
 * server's words, across the entity or within a parent named by a temporary id; and the
 * password placeholder of get replies, which the device never keeps, sends or accepts as typed.
 */
import { describe, expect, it } from 'vitest';
import { classEntity, schoolEntity, studentEntity, teacherEntity } from '../../../src/contract/entities';
import { PASSWORD_PLACEHOLDER } from '../../../src/contract/password-placeholder';
import { ruleOfRefusal, uniqueRules } from '../../../src/contract/unique';
import { formProblems, validateWrite } from '../../../src/contract/validation';
import type { LocalDb } from '../../../src/db/database';
import { mutate } from '../../../src/db/mutate';
import { addMany } from '../../../src/db/mutations/add-many';
import { DuplicateError } from '../../../src/db/mutations/refuse-duplicates';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { sharedValues } from '../../../src/db/reads/shared-values';
import { currentRecordFrom } from '../../../src/sync/merge/current-record';
import { mergeEdit } from '../../../src/sync/merge/merge-edit';
import { normaliseRow } from '../../../src/sync/pull/normalise';
import { fixtureWidgetV2, registerFixtures } from '../../helpers/fixture-entities';
import { freshLocalDbEach } from '../../helpers/local-db';

registerFixtures(fixtureWidgetV2);

let db: LocalDb;
freshLocalDbEach('unique', (opened) => {
  db = opened;
});

const widget = (values: Record<string, string>) => mutate(db, { op: 'add', entity: fixtureWidgetV2, values });

describe('unique fields on the device', () => {
  it('across the entity: the same text refused at the field, another case or an edit of itself allowed', async () => {
    const { key } = await widget({ widget_name: 'CBSE', motto: 'm' });
    await expect(widget({ widget_name: 'CBSE', motto: 'm' })).rejects.toEqual(
      new DuplicateError('widget_name', 'Widget Name is already used by another fixture widget'),
    );
    await widget({ widget_name: 'cbse', motto: 'm' });
    // Its own record is no duplicate; nothing was queued by the refusal.
    await mutate(db, {
      op: 'update',
      entity: fixtureWidgetV2,
      key,
      values: { widget_name: 'CBSE', motto: 'n' },
    });
    expect(await db.outbox.count()).toBe(2);
    await expect(
      mutate(db, { op: 'update', entity: fixtureWidgetV2, key, values: { widget_name: 'cbse' } }),
    ).rejects.toBeInstanceOf(DuplicateError);
  });

  it('within a parent: the same code under another class or none is allowed; a temporary parent id counts as its server id', async () => {
    const cls = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'New class' } });
    await widget({ widget_name: 'A', widget_code: 'X1', class_id: cls.key, motto: 'm' });
    await widget({ widget_name: 'B', widget_code: 'X1', class_id: '2', motto: 'm' });
    await widget({ widget_name: 'C', widget_code: 'X1', motto: 'm' });
    await widget({ widget_name: 'D', widget_code: '', class_id: cls.key, motto: 'm' });
    await widget({ widget_name: 'E', widget_code: '', class_id: cls.key, motto: 'm' });

    const add = (await db.outbox.toArray()).find((e) => e.entity === 'class')!;
    await applyServerIds(db, [{ entity: 'class', tempId: cls.key, serverId: '90', seq: add.seq }]);
    for (const classId of ['90', cls.key])
      await expect(
        widget({ widget_name: `F${classId}`, widget_code: 'X1', class_id: classId, motto: 'm' }),
      ).rejects.toEqual(
        new DuplicateError(
          'widget_code',
          'Widget Code is already used by another fixture widget in this class',
        ),
      );
  });

  it('an e-mail without case: a student whose address another student has is refused; a teacher may have it', async () => {
    const student = (email: string) =>
      mutate(db, {
        op: 'add',
        entity: studentEntity,
        values: {
          student_name: 'S',
          email,
          password: 'secret-12',
          contact_no: '98765',
          school_id: '1',
          country: 'IN',
        },
      });
    const { key } = await student('Ravi@X.example');
    await expect(student(' ravi@x.EXAMPLE ')).rejects.toEqual(
      new DuplicateError('email', 'Email is already used by another student'),
    );
    await mutate(db, {
      op: 'add',
      entity: teacherEntity,
      values: {
        teacher_name: 'T',
        email: 'ravi@x.example',
        password: 'secret-12',
        contact_no: '98765',
        school_id: '1',
        country: 'IN',
      },
    });
    // Its own address in another case is no duplicate.
    await mutate(db, { op: 'update', entity: studentEntity, key, values: { email: 'RAVI@x.example' } });
  });

  it('many adds at once (an import slice) are refused as one by one would: a held value, or an earlier add of it', async () => {
    const cls = await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'New class' } });
    await widget({ widget_name: 'Held', widget_code: 'X1', class_id: cls.key, motto: 'm' });
    const add = (await db.outbox.toArray()).find((e) => e.entity === 'class')!;
    await applyServerIds(db, [{ entity: 'class', tempId: cls.key, serverId: '90', seq: add.seq }]);
    const before = await db.outbox.count();
    const many = (rows: Record<string, string>[]) =>
      addMany(
        db,
        fixtureWidgetV2,
        rows.map((r) => ({ motto: 'm', ...r })),
      );
    const byName = new DuplicateError('widget_name', 'Widget Name is already used by another fixture widget');
    const byCode = new DuplicateError(
      'widget_code',
      'Widget Code is already used by another fixture widget in this class',
    );
    await expect(many([{ widget_name: 'A' }, { widget_name: 'Held' }])).rejects.toEqual(byName);
    await expect(many([{ widget_name: 'A' }, { widget_name: 'B' }, { widget_name: 'A' }])).rejects.toEqual(
      byName,
    );
    // Within a parent: the held code under the parent's server id, and two adds under its two ids.
    await expect(many([{ widget_name: 'C', widget_code: 'X1', class_id: '90' }])).rejects.toEqual(byCode);
    await expect(
      many([
        { widget_name: 'D', widget_code: 'Y', class_id: '90' },
        { widget_name: 'E', widget_code: 'Y', class_id: cls.key },
      ]),
    ).rejects.toEqual(byCode);
    expect(await db.outbox.count()).toBe(before);
    // Another case, another parent, none or an empty code: all added, in order.
    const added = await many([
      { widget_name: 'held' },
      { widget_name: 'F', widget_code: 'X1', class_id: '2' },
      { widget_name: 'G', widget_code: 'X1' },
      { widget_name: 'H', widget_code: '', class_id: '90' },
      { widget_name: 'I', widget_code: '', class_id: '90' },
    ]);
    expect(added.keys).toHaveLength(5);
    expect((await db.outbox.toArray()).slice(before).map((e) => e.payload.widget_name)).toEqual([
      'held',
      'F',
      'G',
      'H',
      'I',
    ]);
  });

  it('the records that already share an address are found from the index, oldest first, without case', async () => {
    const rows = db.rows(studentEntity);
    await rows.bulkPut([
      { student_id: '10', student_name: 'A', email: 'a@x.example' },
      { student_id: '9', student_name: 'B', email: 'A@X.example' },
      { student_id: '11', student_name: 'C', email: 'c@x.example' },
      { student_id: '2', student_name: 'D', email: 'a@x.EXAMPLE' },
    ]);
    const [rule] = uniqueRules(studentEntity);
    const shared = await sharedValues(db, studentEntity, rule, 10);
    expect(shared.map((g) => [g.value, g.rows.map((r) => r.student_id)])).toEqual([
      ['a@x.example', ['2', '9', '10']],
    ]);
  });
});

describe("a server's refusal, read back at its field", () => {
  it('the words of a rule name its field; other words none', () => {
    expect(
      ruleOfRefusal(fixtureWidgetV2, 'Widget Code is already used by another fixture widget in this class'),
    ).toEqual({
      field: 'widget_code',
      within: 'class_id',
      caseless: false,
    });
    expect(
      ruleOfRefusal(fixtureWidgetV2, 'Widget Name is already used by another fixture widget')?.field,
    ).toBe('widget_name');
    expect(ruleOfRefusal(fixtureWidgetV2, 'Motto is required')).toBeNull();
  });
});

describe('the password placeholder', () => {
  const school = {
    schoolName: 'Green Valley',
    schoolAddress: '1 Road',
    email: 'o@school.example',
    contactNumber: '9876543210',
    country: 'IN',
    state: 'MH',
    city: 'Pune',
  };

  it('on the wire: an update keeps the password, an add refuses it', () => {
    const kept = validateWrite(schoolEntity, 'update', { ...school, password: PASSWORD_PLACEHOLDER });
    expect(kept).toMatchObject({ ok: true, value: { password: null } });
    expect(validateWrite(schoolEntity, 'add', { ...school, password: PASSWORD_PLACEHOLDER })).toEqual({
      ok: false,
      message: `Password cannot be "${PASSWORD_PLACEHOLDER}": that text means "keep the current password"`,
    });
  });

  it('typed in our form it is refused; empty on an edit keeps the password', () => {
    const values = {
      school_name: 'G',
      school_address: 'A',
      email: 'o@s.example',
      contact_no: '98765',
      country: 'IN',
      state: 'MH',
      city: 'P',
    };
    expect(formProblems(schoolEntity, 'update', { ...values, password: PASSWORD_PLACEHOLDER })).toEqual([
      { field: 'password', message: expect.stringContaining('keep the current password'), missing: false },
    ]);
    expect(formProblems(schoolEntity, 'update', { ...values, password: '' })).toEqual([]);
  });

  it('a row read from a server loses it; an edit sends back what the get said, or what was typed, never a conflict', () => {
    const reply = { teacher_id: 3, teacher_name: 'Asha', password: PASSWORD_PLACEHOLDER };
    expect(normaliseRow(teacherEntity, reply)).toEqual({ teacher_id: '3', teacher_name: 'Asha' });
    const current = currentRecordFrom(teacherEntity, {
      kind: 'reply',
      status: 200,
      body: { success: true, teacher: reply },
      replayed: false,
    });
    if (current.kind !== 'found') throw new Error('not found');
    const base = { teacher_id: '3', teacher_name: 'Asha' };
    for (const [typed, sent] of [
      ['new-secret', 'new-secret'],
      ['', PASSWORD_PLACEHOLDER],
    ]) {
      const merged = mergeEdit(
        teacherEntity,
        base,
        { teacher_name: 'Asha R.', password: typed },
        current.row,
      );
      expect(merged).toEqual({ values: { ...base, teacher_name: 'Asha R.', password: sent }, conflicts: [] });
    }
  });
});
