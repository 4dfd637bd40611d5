/**
 * Reading many records at once (src/db/reads/read-many.ts): whether the wanted keys lie close
 * together (one range read) or far apart (key by key), the answer is the one a look per key gives.
 */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { TEMP_PREFIX } from '../../../src/db/ids';
import { mutate } from '../../../src/db/mutate';
import { getManyByNumber, pickFromRange, SPREAD } from '../../../src/db/reads/read-many';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('read-many', (opened) => {
  db = opened;
});

const addClasses = async (n: number) => {
  for (let i = 0; i < n; i++)
    await mutate(db, { op: 'add', entity: classEntity, values: { class_name: `C${i}` } });
};

describe('getManyByNumber', () => {
  it('answers as bulkGet does, for close keys, far keys, missing keys and any order', async () => {
    await addClasses(SPREAD * 2 + 5);
    const seqs = await db.outbox.orderBy('seq').primaryKeys();
    const asks = [
      [seqs[3], seqs[1], seqs[2]],
      [seqs[0], seqs[seqs.length - 1]],
      [seqs[4], 99_999, seqs[5]],
      [seqs[7]],
    ];
    for (const keys of asks)
      expect(await getManyByNumber(db.outbox, 'seq', keys)).toEqual(await db.outbox.bulkGet(keys));
    expect(await getManyByNumber(db.outbox, 'seq', [])).toEqual([]);
  });
});

describe('pickFromRange', () => {
  it('keeps only the wanted records of the range, reading the range or asking one by one', async () => {
    await addClasses(SPREAD + 3);
    const table = db.rows(classEntity);
    const ids = (await table.toArray()).map((row) => row.class_id as string);
    expect(ids.every((id) => id.startsWith(TEMP_PREFIX))).toBe(true);
    const range = () => table.where('class_id').startsWith(TEMP_PREFIX);
    let askedOneByOne = 0;
    const oneByOne = (wanted: string[]) => async () => {
      askedOneByOne += 1;
      return (await table.bulkGet(wanted)).filter((row) => row !== undefined);
    };
    const idOf = (row: { class_id?: unknown }) => row.class_id as string;

    const many = ids.slice(0, 5);
    const picked = await pickFromRange(range(), new Set(many), idOf, oneByOne(many));
    expect(picked.map(idOf).sort()).toEqual([...many].sort());
    expect(askedOneByOne).toBe(0);

    // One wanted among more than SPREAD records: asked for alone, with the same answer.
    const one = [ids[2]];
    const alone = await pickFromRange(range(), new Set(one), idOf, oneByOne(one));
    expect(alone.map(idOf)).toEqual(one);
    expect(askedOneByOne).toBe(1);
  });
});
