/**
 * Many rows at once (a delta page of thousands, a bare list of 100,000) read as ONE JSON value
 * the database builds (json_agg), instead of row by row: the drivers then parse one text with
 * JSON.parse instead of decoding every column of every row, which on PGlite is several times
 * slower than the query itself. The rows are the same as the row SELECT's
 * (select.ts) as the API sends them (sql.ts, toWireRow): the table's own columns in their
 * order, secrets left out, then parents' names and sets; timestamps written as a JavaScript
 * Date's JSON (UTC, milliseconds, 'Z'), as the drivers' Date objects go out.
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { RowSelect } from './select';
import { ident } from './sql';

export type JsonRows = (
  q: Query,
  tail: string,
  params: readonly unknown[],
) => Promise<Record<string, unknown>[]>;

const AS_JS_DATE = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** `select`: the row SELECT's columns after the table's own, and its FROM (select.ts). */
export function jsonRows(entity: EntityDescription, select: Pick<RowSelect, 'extra' | 'from'>): JsonRows {
  const secret = new Set(
    Object.entries(entity.fields)
      .filter(([, spec]) => spec.kind === 'password')
      .map(([name]) => name),
  );
  // The table's columns, read from the catalogue at each call (a fraction of a millisecond
  // beside a page of thousands of rows) rather than once: another process of a scale-out may
  // add a column while this one runs, and the row-shape reset (row-shapes.ts) that re-sends
  // every row for it must carry it.
  const ownColumns = async (q: Query) => {
    const columns = await q<{ name: string; stamp: boolean }>(
      `SELECT attname AS name, atttypid = 'timestamptz'::regtype AS stamp FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [entity.table],
    );
    return columns
      .filter((c) => !secret.has(c.name))
      .map((c) =>
        c.stamp
          ? `to_char(t.${ident(c.name)} AT TIME ZONE 'UTC', ${AS_JS_DATE}) AS ${ident(c.name)}`
          : `t.${ident(c.name)}`,
      )
      .join(', ');
  };
  /** `tail`: WHERE, ORDER BY and LIMIT of the row SELECT; the aggregate keeps its order. */
  return async (q, tail, params) => {
    const sql = `SELECT coalesce(json_agg(r), '[]') AS rows FROM (SELECT ${await ownColumns(q)}${select.extra} ${select.from} ${tail}) r`;
    const [{ rows }] = await q<{ rows: Record<string, unknown>[] }>(sql, params);
    return rows;
  };
}
