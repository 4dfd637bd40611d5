/**
 * What discarding an add would strand (src/sync/stranded.ts): the later changes naming the
 * record only that add creates, through adds made on top of it too, and nothing for an add
 * the server has confirmed or for other changes; the refusal of a change left naming such a
 * record says which record it is.
 */
import { describe, expect, it } from 'vitest';
import {
  bookEntity,
  classEntity,
  schoolEntity,
  seriesEntity,
  studentEntity,
} from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import type { LocalDb } from '../../../src/db/database';
import { mutate } from '../../../src/db/mutate';
import type { Values } from '../../../src/db/mutations/change';
import { discardEntry } from '../../../src/db/outbox/discard';
import { loadIdResolver } from '../../../src/db/resolve';
import { strandedBy, unconfirmedError } from '../../../src/sync/stranded';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('stranded', (opened) => {
  db = opened;
});

const entries = () => db.outbox.orderBy('seq').toArray();
const add = async (entity: EntityDescription, values: Values) =>
  (await mutate(db, { op: 'add', entity, values })).key;
const strandedNames = async (seq: number) => {
  const all = await entries();
  const entry = all.find((e) => e.seq === seq)!;
  return strandedBy(all, entry, await loadIdResolver(db)).map(
    (e) => (e.payload.student_name ?? e.payload.series_name ?? e.payload.book_name ?? e.op) as string,
  );
};

describe('stranded by a discard', () => {
  it('names the changes that need the added record, through the adds made on top of it', async () => {
    const school = await add(schoolEntity, { school_name: 'Hill Top' });
    const otherSchool = await add(schoolEntity, { school_name: 'Lake Side' });
    await add(studentEntity, { student_name: 'Asha', school_id: school });
    await add(studentEntity, { student_name: 'Ravi', school_id: otherSchool });
    const cls = await add(classEntity, { class_name: 'Class 9' });
    const series = await add(seriesEntity, { series_name: 'Bright', class_id: cls, subject_id: '7' });
    await add(bookEntity, { book_name: 'Bright 9', series_id: series, class_id: '3', subject_id: '7' });
    await add(classEntity, { class_name: 'Class 10' });
    const [schoolAdd, , , , classAdd, , , lone] = await entries();

    expect(await strandedNames(schoolAdd!.seq)).toEqual(['Asha']);
    expect(await strandedNames(classAdd!.seq)).toEqual(['Bright', 'Bright 9']);
    expect(await strandedNames(lone!.seq)).toEqual([]);
  });

  it('strands nothing once the server has named the record', async () => {
    const school = await add(schoolEntity, { school_name: 'Hill Top' });
    await add(studentEntity, { student_name: 'Asha', school_id: school });
    await db.idmap.put({ tempId: school, entity: schoolEntity.name, serverId: '41' });
    expect(await strandedNames((await entries())[0]!.seq)).toEqual([]);
  });

  it('a change left naming a discarded add says which record it names', async () => {
    const school = await add(schoolEntity, { school_name: 'Hill Top' });
    await add(studentEntity, { student_name: 'Asha', school_id: school });
    const [schoolAdd, studentAdd] = await entries();
    const resolve = await loadIdResolver(db);
    // While this device still has the school: named by its name.
    expect(await unconfirmedError(db, studentAdd!, resolve)).toBe(
      'It refers to the school “Hill Top”, which the server has not confirmed, so it cannot be sent.',
    );
    await discardEntry(db, schoolAdd!);
    expect(await unconfirmedError(db, studentAdd!, resolve)).toBe(
      'It refers to a school the server has not confirmed (its add is no longer waiting), so it cannot be sent.',
    );
  });
});
