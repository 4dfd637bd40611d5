/**
 * The list index kept by the storage layer (src/db/list-index/), on fake-indexeddb: the ways of
 * changing rows the random sequences of list-index.property.test.ts do not take (clearing a
 * table, deleting a range of keys, writes issued together in one transaction, a transaction
 * that aborts), what a pulled page of new rows costs in chunks, and a store whose index is
 * missing or holds another projection.
 */
import { describe, expect, it } from 'vitest';
import { classEntity, entities, studentEntity } from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import type { LocalDb, Row } from '../../../src/db/database';
import { isTempId, newTempId, newUuid, TEMP_PREFIX, tempSequence } from '../../../src/db/ids';
import { ListEngine } from '../../../src/db/list-engine/engine';
import { keyOrderPage } from '../../../src/db/list-engine/key-page';
import { compareFor, keyOrder } from '../../../src/db/list-engine/order';
import { engineSpecs } from '../../../src/db/list-engine/spec';
import {
  CHUNK_SPAN,
  CHUNK_STORE,
  chunkOf,
  HEAD_STORE,
  KEY_COLUMN,
  type StoredHead,
} from '../../../src/db/list-index/chunk';
import { foldText } from '../../../src/db/list-index/fold-text';
import { ensureListIndex } from '../../../src/db/list-index/middleware';
import { listProjection, searchColumn } from '../../../src/db/list-index/projection';
import {
  agreeWithHead,
  INDEX_STORES,
  readColumn,
  readHead,
  readTableIndex,
} from '../../../src/db/list-index/read';
import { mutate } from '../../../src/db/mutate';
import { applyServerIds } from '../../../src/db/outbox/rekey';
import { applyPulled } from '../../../src/sync/pull/pull-apply';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('list-index', (opened) => {
  db = opened;
});

const student = (id: number, name = `Student ${id}`): Row => ({
  student_id: String(id),
  student_name: name,
  school_id: '1',
  status: 'Enabled',
});

/** Key -> projected values, as the chunks hold them. */
async function indexed(entity: EntityDescription): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const { chunks } = await readTableIndex(db, entity.table, listProjection(entity, entities).fields);
  for (const chunk of chunks)
    chunk.keys.forEach((k, i) => {
      out[k] = chunk.cols.map((c) => c[i]);
    });
  return out;
}

const names = async () =>
  Object.fromEntries(Object.entries(await indexed(classEntity)).map(([k, v]) => [k, v[0]]));

describe('the list index follows every kind of write', () => {
  it('a cleared table and a deleted range of keys leave the index', async () => {
    await db
      .rows(classEntity)
      .bulkPut(['1', '2', '3', '700'].map((id) => ({ class_id: id, class_name: `C${id}` })));
    await db.rows(classEntity).where('class_id').between('2', '3', true, true).delete();
    expect(await names()).toEqual({ '1': 'C1', '700': 'C700' });
    await db.rows(classEntity).clear();
    expect(await names()).toEqual({});
    expect((await readTableIndex(db, 'classes', [])).head?.chunks).toEqual({});
  });

  it('writes issued together in one transaction all reach the index', async () => {
    await db.transaction('rw', db.rows(classEntity), async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          db.rows(classEntity).put({ class_id: String(i), class_name: `C${i}` }),
        ),
      );
    });
    expect(Object.keys(await names())).toHaveLength(20);
  });

  it('writes issued together around a range delete keep their order in the rows and the index', async () => {
    // Row writes go to the store at once, their index work after; a delete of a range reads
    // its keys first, so the writes after it wait for it.
    const table = db.rows(classEntity);
    await db.transaction('rw', table, async () => {
      await Promise.all([
        table.bulkPut(['1', '2', '3', '4', '5'].map((id) => ({ class_id: id, class_name: `C${id}` }))),
        table.where('class_id').between('2', '4', true, true).delete(),
        table.put({ class_id: '3', class_name: 'Back' }),
        table.bulkDelete(['5']),
        table.put({ class_id: '6', class_name: 'C6' }),
      ]);
    });
    const rows = Object.fromEntries((await table.toArray()).map((r) => [r.class_id, r.class_name]));
    expect(rows).toEqual({ '1': 'C1', '3': 'Back', '6': 'C6' });
    expect(await names()).toEqual(rows);
  });

  it('a page put in slices writes its chunks at the end, not after every slice', async () => {
    const before = (await readTableIndex(db, 'students', [])).head?.v ?? 0;
    const rows = Array.from({ length: 2500 }, (_, i) => student(1 + i));
    await applyPulled(db, studentEntity, { rows, deleted: [], cursor: null });
    const { head } = await readTableIndex(db, 'students', []);
    // 10 slices of 250, each in two writes: 20 writes of rows.
    expect((head?.v ?? 0) - before).toBeLessThan(5);
    expect(Object.keys(await indexed(studentEntity))).toHaveLength(2500);
  });

  it('a transaction that aborts leaves the index as it was', async () => {
    await db.rows(classEntity).put({ class_id: '1', class_name: 'Kept' });
    await expect(
      db.transaction('rw', db.rows(classEntity), async () => {
        await db.rows(classEntity).put({ class_id: '1', class_name: 'Lost' });
        await db.rows(classEntity).put({ class_id: '2', class_name: 'Lost too' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await names()).toEqual({ '1': 'Kept' });
  });

  it('a modify that changes rows, and one that changes their keys, reach the index', async () => {
    await db.rows(classEntity).bulkPut([
      { class_id: '1', class_name: 'One' },
      { class_id: '2', class_name: 'Two' },
    ]);
    await db
      .rows(classEntity)
      .toCollection()
      .modify((row) => {
        row.class_name = `${row.class_name}!`;
      });
    await db
      .rows(classEntity)
      .where('class_id')
      .equals('2')
      .modify((row) => {
        row.class_id = '2000';
      });
    expect(await names()).toEqual({ '1': 'One!', '2000': 'Two!' });
  });

  it('a pulled page of 2,000 new rows writes a few chunks, not one record per row', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => student(100_000 + i));
    await db.rows(studentEntity).bulkPut(rows);
    const { head, chunks } = await readTableIndex(db, 'students', []);
    expect(chunks.length).toBeLessThanOrEqual(5);
    expect(Object.keys(head?.chunks ?? {})).toHaveLength(chunks.length);
    expect(Object.keys(await indexed(studentEntity))).toHaveLength(2000);
  });
});

describe('what the index keeps so that a list loads without computing', () => {
  it('the search text folded when rows are written: equal to folding the row', async () => {
    const projection = listProjection(studentEntity, entities);
    const column = projection.fields.indexOf(searchColumn(studentEntity.list.search));
    expect(column).toBe(projection.fields.length - 1);
    await db.rows(studentEntity).bulkPut([student(1, 'José ÁLVAREZ'), student(2, 'Zoë İnce'), student(3)]);
    await db.rows(studentEntity).update('3', { student_name: 'Ørjan Brønstad' });
    const rows = await db.rows(studentEntity).toArray();
    const stored = await indexed(studentEntity);
    for (const row of rows)
      expect(stored[String(row.student_id)][column]).toBe(foldText(String(row.student_name)));
    expect(stored['1'][column]).toBe('jose alvarez');
  });

  it('a search that reads a parent’s name keeps no folded column (the parent’s current name is read)', () => {
    const search = { ...studentEntity.list, search: ['school_name'] };
    const projection = listProjection({ ...studentEntity, list: search }, entities);
    expect(projection.fields.some((f) => f.startsWith(':search'))).toBe(false);
  });

  it('each chunk keeps its ids in order, so the stored order is the engine’s key order', async () => {
    const table = db.rows(studentEntity);
    // One chunk (ids 0-511): out of order, then a delete (the last row takes its place) and a late id.
    await table.bulkPut([9, 3, 7, 1, 5].map((id) => student(id)));
    await table.delete('3');
    await table.put(student(2));
    await table.bulkPut([600, 513].map((id) => student(id)));
    const { chunks } = await readTableIndex(db, 'students', []);
    const stored = chunks.sort((a, b) => a.n - b.n).flatMap((c) => c.keys);
    expect(stored).toEqual(['1', '2', '5', '7', '9', '513', '600']);
    // What the engine loads in chunk order is its key order as it is (checked, not sorted).
    expect(Array.from(keyOrder(stored))).toEqual(stored.map((_, i) => i));
    expect(Array.from(keyOrder(['9', '', 'x', '1', '5']))).toEqual([3, 4, 0, 2]);
  });
  it('a column read whole or in pieces holds every chunk, temporary ids’ chunks included', async () => {
    // Forty chunks of ids (one row each, two with two) and the chunks of temporary ids.
    const ids = Array.from({ length: 40 }, (_, i) => i * CHUNK_SPAN + 1);
    const rows = [...ids, 5, 20 * CHUNK_SPAN + 7].map((id) => student(id));
    const temps = [newTempId(), newTempId()].map((id) => ({ ...student(0, `New ${id}`), student_id: id }));
    await db.rows(studentEntity).bulkPut([...rows, ...temps]);
    const written = Object.fromEntries(
      [...rows, ...temps].map((r: Row) => [String(r.student_id), r.student_name]),
    );
    for (const inPieces of [false, true]) {
      const { head, keys, names } = await db.transaction('r', INDEX_STORES, async () => {
        const head = await readHead(db, 'students');
        if (!head) throw new Error('no head');
        const keys = await readColumn(db, head, KEY_COLUMN, inPieces);
        return { head, keys, names: await readColumn(db, head, 'student_name', inPieces) };
      });
      expect(Object.keys(head.chunks).length).toBeGreaterThan(40);
      expect([...names.keys()].sort()).toEqual(Object.keys(head.chunks).map(Number).sort());
      const read = [...keys].flatMap(([n, ks]) => ks.map((k, i) => [k, names.get(n)?.[i]]));
      expect(Object.fromEntries(read)).toEqual(written);
    }
  });
  it('a column read ahead, made to agree with the head read after changes, equals a read then', async () => {
    const table = db.rows(studentEntity);
    await table.bulkPut(Array.from({ length: 20 }, (_, i) => student(i * CHUNK_SPAN + 1)));
    await table.put(student(2));
    const readNow = () =>
      db.transaction('r', INDEX_STORES, async () => {
        const head = await readHead(db, 'students');
        if (!head) throw new Error('no head');
        const fields = [KEY_COLUMN, 'student_name'];
        const columns = await Promise.all(fields.map((f) => readColumn(db, head, f, true)));
        return { head, columns: new Map(fields.map((f, i) => [f, columns[i]])) };
      });
    const early = await readNow();
    // Meanwhile: a row renamed, a chunk emptied, a chunk added, and a chunk left as it was.
    await table.update('2', { student_name: 'Renamed' });
    await table.delete(String(5 * CHUNK_SPAN + 1));
    await table.put(student(40 * CHUNK_SPAN + 3));
    const now = await readNow();
    const agreed = await db.transaction('r', INDEX_STORES, () => agreeWithHead(db, early, now.head));
    expect(agreed).toEqual(now.columns);
    expect(early.columns).not.toEqual(now.columns);
  });
});

describe('an index that is missing or holds another projection is rebuilt from the rows', () => {
  it('rebuilt at the first write, and by ensureListIndex', async () => {
    await db.rows(classEntity).bulkPut([
      { class_id: '1', class_name: 'One' },
      { class_id: '2', class_name: 'Two' },
    ]);
    // A store from before the index: rows, no head, no chunks.
    await db.table(HEAD_STORE).clear();
    await db.table(CHUNK_STORE).clear();
    await db.rows(classEntity).put({ class_id: '3', class_name: 'Three' });
    expect(await names()).toEqual({ '1': 'One', '2': 'Two', '3': 'Three' });

    await db.table(HEAD_STORE).clear();
    await db.table(CHUNK_STORE).clear();
    await ensureListIndex(db, listProjection(classEntity, entities));
    expect(await names()).toEqual({ '1': 'One', '2': 'Two', '3': 'Three' });
  });

  it('a head naming other fields (another build) is rebuilt with this projection', async () => {
    await db.rows(classEntity).put({ class_id: '1', class_name: 'One' });
    const head = (await db.table(HEAD_STORE).get('classes')) as StoredHead;
    await db.table(HEAD_STORE).put({ ...head, fields: 'class_id,old_field' });
    await ensureListIndex(db, listProjection(classEntity, entities));
    const rebuilt = (await db.table(HEAD_STORE).get('classes')) as StoredHead;
    expect(rebuilt.fields).toBe(head.fields);
    expect(await names()).toEqual({ '1': 'One' });
    // Once: the next open (and the next write) finds this projection and rebuilds nothing.
    await ensureListIndex(db, listProjection(classEntity, entities));
    expect(((await db.table(HEAD_STORE).get('classes')) as StoredHead).v).toBe(rebuilt.v);
    await db.rows(classEntity).put({ class_id: '2', class_name: 'Two' });
    expect(((await db.table(HEAD_STORE).get('classes')) as StoredHead).v).toBe(rebuilt.v + 1);
    expect(await names()).toEqual({ '1': 'One', '2': 'Two' });
  });
});

describe('temporary ids carry a sequence, and their rows share chunks as ids do', () => {
  /** A row of the students list under any key. */
  const studentUnder = (key: string): Row => ({ ...student(1, `Student ${key}`), student_id: key });
  /** Chunk -> keys, as stored. */
  const chunksOf = async () =>
    new Map((await readTableIndex(db, 'students', [])).chunks.map((c) => [c.n, c.keys]));

  it('consecutive temporary ids fall into one or two chunks; a former one keeps its hash chunk', async () => {
    const keys = Array.from({ length: 250 }, () => newTempId());
    expect(keys.every((k) => isTempId(k) && k.startsWith(TEMP_PREFIX))).toBe(true);
    expect(new Set(keys).size).toBe(250);
    const sequences = keys.map((k) => tempSequence(k) as number);
    expect(sequences.every((n, i) => i === 0 || n === sequences[i - 1] + 1)).toBe(true);
    const before = await chunksOf();
    await db.rows(studentEntity).bulkPut(keys.map(studentUnder));
    const after = await chunksOf();
    const touched = [...after.keys()].filter((n) => !before.has(n));
    expect(touched.length).toBeGreaterThanOrEqual(1);
    expect(touched.length).toBeLessThanOrEqual(2);
    expect(touched.every((n) => n < -32)).toBe(true);
    expect(touched.flatMap((n) => after.get(n) ?? []).sort()).toEqual([...keys].sort());

    // A temporary id of the former shape (already on devices) is still one, in a hash chunk.
    const former = `${TEMP_PREFIX}${newUuid()}`;
    expect(isTempId(former)).toBe(true);
    expect(tempSequence(former)).toBeNull();
    expect(chunkOf(former)).toBeLessThan(0);
    expect(chunkOf(former)).toBeGreaterThanOrEqual(-32);
    // Even one whose first group is all digits (the sequence's shape needs 16 hex digits after it).
    expect(tempSequence('tmp-12345678-1234-4234-8234-123456789012')).toBeNull();
  });

  it('key order and key pages over ids, sequenced and former temporary ids equal a sort of all keys', async () => {
    const otherDevice = (tempSequence(newTempId()) as number) - 3 * CHUNK_SPAN;
    const keys = [
      // Ids over several spans of CHUNK_SPAN.
      ...Array.from({ length: 150 }, (_, i) => String(1 + i * 37)),
      // This device's new records, and a saved queue's from another device (an earlier sequence).
      ...Array.from({ length: 300 }, () => newTempId()),
      ...Array.from({ length: 120 }, (_, i) => `${TEMP_PREFIX}${otherDevice + i}-${'0123456789abcdef'}`),
      // Former temporary ids.
      ...Array.from({ length: 40 }, () => `${TEMP_PREFIX}${newUuid()}`),
    ];
    await db.rows(studentEntity).bulkPut(keys.map(studentUnder));
    const byNumber = compareFor('number');
    const sorted = [...keys].sort((a, b) => byNumber(a, b) || (a < b ? -1 : a > b ? 1 : 0));

    // The engine's key order: what every order falls back on.
    expect(Array.from(keyOrder(keys), (s) => keys[s])).toEqual(sorted);
    const { head, chunks } = await readTableIndex(db, 'students', []);
    const stored = chunks.flatMap((c) => c.keys);
    expect(Array.from(keyOrder(stored), (s) => stored[s])).toEqual(sorted);
    expect(Object.values(head?.sizes ?? {}).reduce((a, b) => a + b, 0)).toBe(keys.length);

    // Every page both ways, straight from the index and from the engine.
    const projection = listProjection(studentEntity, entities);
    const engine = new ListEngine(db, engineSpecs(entities));
    try {
      const pageSize = 100;
      const pages = Math.ceil(keys.length / pageSize);
      for (const dir of ['asc', 'desc'] as const) {
        const inOrder = dir === 'asc' ? sorted : [...sorted].reverse();
        for (let page = 1; page <= pages; page++) {
          const expected = {
            keys: inOrder.slice((page - 1) * pageSize, page * pageSize),
            total: keys.length,
            page,
            pageSize,
          };
          expect(await keyOrderPage(db, projection, { page, pageSize, dir })).toEqual(expected);
          const byKey = { page, pageSize, sort: { field: 'student_id', dir } };
          expect(await engine.page(studentEntity.name, byKey, true)).toEqual(expected);
        }
      }
    } finally {
      engine.close();
    }
  });

  it('a rekey moves the row from its temporary chunk to its id’s chunk', async () => {
    const { key } = await mutate(db, {
      op: 'add',
      entity: classEntity,
      values: { class_name: 'New class' },
    });
    expect(tempSequence(key)).not.toBeNull();
    const tempChunk = chunkOf(key);
    expect((await readTableIndex(db, 'classes', [])).chunks.find((c) => c.n === tempChunk)?.keys).toEqual([
      key,
    ]);
    const [entry] = await db.outbox.toArray();
    await applyServerIds(db, [{ entity: classEntity.name, tempId: key, serverId: '1300', seq: entry.seq }]);
    const { head, chunks } = await readTableIndex(db, 'classes', []);
    expect(chunks.map((c) => [c.n, c.keys])).toEqual([[Math.floor(1300 / CHUNK_SPAN), ['1300']]]);
    expect(head?.sizes).toEqual({ [Math.floor(1300 / CHUNK_SPAN)]: 1 });
    expect(await names()).toEqual({ '1300': 'New class' });
  });
});
