/**
 * Statements with parameters inside a transaction (on PGlite, named prepared statements:
 * server/db/pglite-prepared.ts) answer exactly as the same statements outside one, however
 * often they run, after a table changed shape, past the number of statements kept, and after
 * one failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../server/db';

let db: Database;

beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  await db.query(`CREATE TABLE shapes (
    id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, tags text[], doc jsonb, at timestamptz, note text)`);
});
afterAll(() => db.close());

const INSERT =
  'INSERT INTO shapes (name, tags, doc, at, note) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING *';
const READ = 'SELECT * FROM shapes WHERE name = ANY($1::text[]) ORDER BY id';
const values = (name: string) => [
  name,
  ['a', 'b,c', 'd"e'],
  JSON.stringify({ n: 1, s: 'x' }),
  new Date(0),
  null,
];

describe('statements with parameters in a transaction', () => {
  it('give the rows, typed, that the same statements give outside one, run after run', async () => {
    const inTx: unknown[] = [];
    for (let i = 0; i < 8; i++) inTx.push(...(await db.tx((q) => q(INSERT, values(`tx ${i}`)))));
    const outside = await db.query(INSERT, values('outside'));
    const strip = ({ id, name, ...rest }: Record<string, unknown>) => rest;
    for (const row of inTx as Record<string, unknown>[]) expect(strip(row)).toEqual(strip(outside[0]));
    expect(outside[0]).toMatchObject({ tags: ['a', 'b,c', 'd"e'], doc: { n: 1, s: 'x' }, note: null });
    expect(typeof (inTx[7] as { id: unknown }).id).toBe('number');
    const names = ['tx 0', 'tx 7', 'outside'];
    expect(await db.tx((q) => q(READ, [names]))).toEqual(await db.query(READ, [names]));
  });

  it('follow a table that changed shape between two transactions', async () => {
    await db.tx((q) => q(INSERT, values('before the column')));
    await db.query("ALTER TABLE shapes ADD COLUMN colour text NOT NULL DEFAULT 'red'");
    const [row] = await db.tx((q) => q(INSERT, values('after the column')));
    expect(row).toMatchObject({ name: 'after the column', colour: 'red' });
  });

  it('stay right past the number of statements kept', async () => {
    const sums = await db.tx(async (q) => {
      const out: number[] = [];
      for (let i = 0; i < 520; i++)
        out.push((await q<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1]))[0].n);
      for (let i = 0; i < 20; i++) out.push((await q<{ n: number }>(`SELECT $1::int + ${i} AS n`, [2]))[0].n);
      return out;
    });
    expect(sums).toEqual([
      ...Array.from({ length: 520 }, (_, i) => 1 + i),
      ...Array.from({ length: 20 }, (_, i) => 2 + i),
    ]);
  });

  it('fail with the database’s own error, roll back, and run again in the next transaction', async () => {
    const failed = db.tx(async (q) => {
      await q(INSERT, values('kept only if all goes'));
      await q(INSERT, values('tx 0'));
    });
    await expect(failed).rejects.toMatchObject({ code: '23505', constraint: 'shapes_name_key' });
    expect(await db.query(READ, [['kept only if all goes']])).toEqual([]);
    const [row] = await db.tx((q) => q(INSERT, values('after the failure')));
    expect(row).toMatchObject({ name: 'after the failure' });
  });
});
